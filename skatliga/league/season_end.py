"""The season's end for a league's officials: the proposal of who goes up and down, with
each level's comparison across divisions, and the next season started in the background
from the moves the official confirms (``services.season_end``, ``tasks.seasons``)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from skatliga.entries import plain
from skatliga.models import Season
from skatliga.services.season_end import moved_teams, proposal
from skatliga.tasks.seasons import start_roll_over
from skatliga.views.referee import forbidden


class NextSeasonForm(forms.Form):
    name = forms.CharField(label=_("Name der neuen Saison"), max_length=120)
    year = forms.IntegerField(label=_("Jahr"), min_value=1900, max_value=2999)


@login_required
def season_end(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("league"), slug=slug)
    if not season.is_run_by(request.user):
        return forbidden(request)
    levels = proposal(season)
    up, down = moved_teams(levels)
    form = NextSeasonForm(
        request.POST or None,
        initial={"name": f"{season.league} {season.year + 1}", "year": season.year + 1},
    )
    if request.method == "POST" and form.is_valid():
        chosen_up = {int(pk) for pk in request.POST.getlist("up") if pk.isdigit()}
        chosen_down = {int(pk) for pk in request.POST.getlist("down") if pk.isdigit()}
        job = start_roll_over(
            season,
            name=form.cleaned_data["name"],
            year=form.cleaned_data["year"],
            up=chosen_up,
            down=chosen_down,
            user=request.user,
        )
        return redirect(reverse("referee:job", args=[job.pk]))
    return render(
        request,
        "league/season_end.html",
        {
            "season": season,
            "levels": [
                {
                    "level": level.level,
                    "divisions": [
                        {
                            "division": division,
                            "rows": [
                                {
                                    "row": row,
                                    "points": plain(row.game_points),
                                    "up": row.team_id in up,
                                    "down": row.team_id in down,
                                }
                                for row in rows
                            ],
                        }
                        for division, rows in level.tables.items()
                    ],
                    "comparisons": [
                        {
                            "best": c.place_from_top,
                            "rows": [
                                (row, plain(row.game_points), chosen)
                                for row, chosen in level.comparison_rows(c)
                            ],
                            "tied": c.tied_at_cut,
                        }
                        for c in level.moves.comparisons
                    ],
                }
                for level in levels
            ],
            "form": form,
        },
    )
