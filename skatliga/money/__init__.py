"""Preisskat money: the purse of an evening (entry fee, lost-game fees, prizes) and its
settlement, exact to the cent (``Decimal``, never float). ``services.money`` computes, ``views``
shows the referee's page, ``pdf`` prints it."""
