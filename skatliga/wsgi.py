import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatliga.settings")

application = get_wsgi_application()

# The migrations this process runs with, read now: after a `git pull` the files on disk are
# the next version's, which /healthz then names as not applied (skatliga.ops.health).
from skatliga.ops.health import known_migrations  # noqa: E402

known_migrations()
