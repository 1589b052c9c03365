"""The Skat rating: the model's mathematics (``model``), pure Python and ``openskill``, no
Django. The ratings kept per player and per list are ``models.rating``; the use cases that
keep them current, ``services.rating``."""
