"""A job's progress page in real Chromium: its script (job.js through poll.js) moves the bar
as the job goes on, within the Content-Security-Policy, and the page goes on to the job's
result when it is done. The job's row is written here as the task worker writes it.

Run with SKATLIGA_SCREENSHOTS=1 to write docs/screenshots/job-progress-{phone,laptop}.png.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.urls import reverse

from skatliga.models import Job
from tests.browser.test_entry import PASSWORD, SCREENSHOTS
from tests.browser.test_security_policy import RECORD_VIOLATIONS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(("name", "width"), [("phone", 390), ("laptop", 1366)])
def test_the_bar_moves_with_the_job_and_the_page_goes_on_to_its_result(
    browser, live_server, django_user_model, tmp_path, name, width
):
    from playwright.sync_api import expect

    referee = django_user_model.objects.create_user("anna", password=PASSWORD)
    job = Job.objects.create(kind="import_archive", user=referee)
    context = browser.new_context(viewport={"width": width, "height": 700}, locale="de-DE")
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    path = reverse("referee:job", args=[job.pk])
    page.goto(live_server.url + path)
    page.fill("#id_username", "anna")
    page.fill("#id_password", PASSWORD)
    page.click("form.login-form button[type=submit]")
    page.wait_for_url(live_server.url + path)
    expect(page.locator("#job-text")).to_have_text("Wartet auf den Hintergrunddienst …")

    Job.objects.filter(pk=job.pk).update(state="running", step="writing", done=180, total=240)
    expect(page.locator("#job-text")).to_have_text("Schreiben … 75 %")
    expect(page.locator("#job-bar")).to_have_attribute("value", "75")
    folder = SCREENSHOTS if os.environ.get("SKATLIGA_SCREENSHOTS") else Path(tmp_path)
    page.screenshot(path=str(folder / f"job-progress-{name}.png"), full_page=True)
    on_the_job_page = page.evaluate("window.__violations")

    done = reverse("referee:dashboard")
    Job.objects.filter(pk=job.pk).update(state="done", done=240, result={"url": done})
    page.wait_for_url(live_server.url + done)
    message = page.locator("main").inner_text()
    violations = page.evaluate("window.__violations")
    context.close()

    assert "Turnier importiert." in message
    assert on_the_job_page == violations == []
