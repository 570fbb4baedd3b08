"""Leagues: a server's season of one game, paired, started, chased and scored by the bot (issue 45).

A league is a list of entrants (sign-up order), a format (Swiss, round robin, single elimination, or divisions
by rating with promotion and relegation between seasons) and a number of rounds. Each round the bot pairs the
players still in, opens every game of the round at once, and a game's end scores the league.

This package's pure part has no Discord, no database, no I/O and no hidden randomness (the same inputs give the
same pairing), so the service, the renderer and the tests share one definition of every rule:

- :mod:`bot.leagues.pairing`: the history of a league as :class:`~bot.leagues.pairing.Played` games and
  :class:`~bot.leagues.pairing.Bye` byes, and the pairing of the next round (Swiss for two-player games and in
  pods of 3-4, Berger round robin, single elimination, divisions with promotion and relegation);
- :mod:`bot.leagues.standings`: points and the tie-breaks (Buchholz, Sonneborn-Berger, wins), defined in its
  docstring, and the ranked table;
- ``bot.leagues.service`` (not pure): the league service over the host, which stores leagues through
  ``bot.storage.leagues`` and drives rounds, deadlines and drops.
"""
