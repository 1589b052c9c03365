"""The examples in the site's docstrings run."""

import doctest
import importlib
import pkgutil

import pytest

import skatliga


def modules():
    for info in pkgutil.walk_packages(skatliga.__path__, "skatliga."):
        if ".migrations" not in info.name and ".management" not in info.name:
            yield info.name


@pytest.mark.parametrize("name", sorted(modules()))
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


def test_there_are_examples():
    assert sum(doctest.testmod(importlib.import_module(n)).attempted for n in modules()) >= 5
