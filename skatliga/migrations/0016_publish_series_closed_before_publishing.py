"""Series closed before publishing existed stay public.

Until migration 0004 every series' results were final on the public pages; 0004 added
``Series.published_at`` empty, so an upgrade from such a release turned all of them
provisional and emptied the standings and the API. On a site where no series has ever been
published or withdrawn (publishing was never used), every series whose lists are all closed
is published as of its last list's closing, unless its tournament hides unpublished series
(a choice made after 0005). Series with open lists stay provisional, as publishing demands.
"""

from django.db import migrations
from django.db.models import Count, F, Max, Q
from django.utils import timezone


def publish_closed_series(apps, schema_editor):
    Change = apps.get_model("skatliga", "Change")
    Series = apps.get_model("skatliga", "Series")
    Tournament = apps.get_model("skatliga", "Tournament")
    Season = apps.get_model("skatliga", "Season")
    if Change.objects.filter(action__in=["series_published", "series_withdrawn"]).exists():
        return
    closed = (
        Series.objects.filter(published_at__isnull=True, tournament__hide_unpublished=False)
        .annotate(
            tables_count=Count("tables"),
            open_count=Count("tables", filter=Q(tables__closed_at__isnull=True)),
            last_closed=Max("tables__closed_at"),
        )
        .filter(tables_count__gt=0, open_count=0)
    )
    tournaments = set()
    for series in closed:
        Series.objects.filter(pk=series.pk).update(published_at=series.last_closed)
        tournaments.add(series.tournament_id)
    if tournaments:  # the cached public pages are keyed on these revisions
        now = timezone.now()
        changed = Tournament.objects.filter(pk__in=tournaments)
        Season.objects.filter(pk__in=changed.values("season_id")).update(
            revision=F("revision") + 1, revised_at=now
        )
        changed.update(revision=F("revision") + 1, revised_at=now)


class Migration(migrations.Migration):
    dependencies = [("skatliga", "0015_table_open_series")]

    operations = [migrations.RunPython(publish_closed_series, migrations.RunPython.noop)]
