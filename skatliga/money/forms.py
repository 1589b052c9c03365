"""The purse form: amounts as typed (a comma or a point), prizes one per line."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from skatliga.forms import coded_error
from skatliga.models.money import CURRENCIES
from skatliga.services import ServiceError
from skatliga.services.money import parse_prize


class AmountField(forms.DecimalField):
    """Euros as typed, with a decimal comma or point (a text field: a number field refuses
    the comma in some browsers), shown as the interface's language writes them ("0,50")."""

    widget = forms.TextInput(attrs={"inputmode": "decimal", "size": 8})

    def __init__(self, **kwargs: object) -> None:
        super().__init__(localize=True, **kwargs)  # type: ignore[arg-type]

    def widget_attrs(self, widget: forms.Widget) -> dict[str, str]:
        return {}

    def to_python(self, value: object) -> Decimal | None:  # type: ignore[override]
        if isinstance(value, str):
            value = value.replace(",", ".").replace("€", "").replace("kr", "").strip(" .")
        return super().to_python(value)


class PurseForm(forms.Form):
    currency = forms.ChoiceField(
        label=_("Währung"), choices=[(c, c) for c in CURRENCIES], initial="EUR", required=False
    )
    entry_fee = AmountField(label=_("Startgeld"), min_value=0, decimal_places=2, max_digits=8)
    lost_fee = AmountField(label=_("Verlustspielgeld"), min_value=0, decimal_places=2, max_digits=6)
    lost_fee_threshold = forms.IntegerField(
        label=_("bis zum verlorenen Spiel"), min_value=0, max_value=99
    )
    lost_fee_later = AmountField(
        label=_("danach je verlorenes Spiel"), min_value=0, decimal_places=2, max_digits=6
    )
    prizes = forms.CharField(
        label=_("Preise nach Platz"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": "50%\n30%\n20%"}),
        help_text=_("Eine Zeile je Platz: ein Betrag (20,00) oder ein Anteil am Topf (30%)."),
    )
    substitutes_without_prize = forms.BooleanField(
        label=_("Ersatzspieler ohne Preisgeld"),
        required=False,
        help_text=_(
            "Ein Ersatzspieler zahlt kein Startgeld: er erhält keinen Preis, sein Platz geht "
            "an den Nächsten."
        ),
    )

    def clean_currency(self) -> str:
        return self.cleaned_data["currency"] or "EUR"

    def clean_prizes(self) -> list[str]:
        prizes = [line.strip() for line in self.cleaned_data["prizes"].splitlines() if line.strip()]
        for prize in prizes:
            try:
                parse_prize(prize)
            except ServiceError as error:
                raise coded_error(error.code, **error.params) from None
        return prizes
