"""The ``/rules`` text for PRINCIPES II-IV: what is implemented and how the open points are settled.

Each ``## key: Title`` line starts a section that ``/rules principes <key>`` shows alone; numbers in brackets
are the resolutions of docs/principes/principes-resolutions.md.
"""

RULES_NOTES_PLAY = """\
## round: The Round, plans and the six actions
Round: the Princeps chooses the direction (direction cw|ccw over the seating Polonia Maior, Masovia, Polonia
Minor, Silesia); the Princesses go on their missions at the start of a Period; the History card is revealed (see
history); every player seals a plan in a DM (plan taxes assembly movement = Actions I, II, III); when all are
ready, everyone's I is revealed and performed in turn order, then II, then III. Any action may be skipped or done
in part: 'done' ends it. After Round 6 (or the Round after an elimination) the Princeps holder wins. The Princeps
token changes hands at a Council only; the turn order of the Round is kept.
Progress takes as many face-up Market tiles as the Period number (2 slots per colour, exchange when full, never
two identical tiles on a board, the Market refills with the duplicate rule). Taxes costs 1 People (refused at 0;
the prompt says when a card or the History card changes the cost) and pays the Might of the lands you control (a
Division token's land pays nothing); Silesia's Colour of Gold adds 2. Assembly brings up to 3 units from your pool
(Knights 1 gold) to your Prince's land and/or your Capital; if you lack a controlled Capital or a Prince on the
map, also to your richest controlled land(s) (7); a Prince figure off the map re-enters this way (8). Building
founds 1 City (cost = its Might: capital 3, city 2, Civitas 1) and up to 2 buildings at 1 gold each, one City and
one building per land (Western Pomerania may hold two Cities, 6), while tokens last. A Castle gives the defender
+2 shields; a Tiltyard gives +1 People and an Abbey +1 Clergy while you control it, and Terra Lanciciensis +1
Clergy likewise (1, 5). Politics: declare the split first (draw 3 court, draw 2 court 1 neighbour...), then
return 1 of the 3 to the bottom of its deck (21); or summon a Council.
## movement: Movement, passage, the Clergy penalty and destruction
Units move one border at a time (move knight posnania gnesna), cavalry 3 points, infantry 2, only on the 44
lands. Entering a land with units of another colour stops the unit unless its owner consents: 'ask <land>' sends
the owner an Allow / Deny prompt (silence = deny; neutral units never consent); 'allow always' or 'deny always'
sets a standing answer for that player, and 'standing <player> ask' clears it. Moves can be undone until 'done'
(at most 40 moves and undos per action); nothing changes hands while they can still be undone. Then: a Division
token where a unit ended is removed with the single penalty (25); the Clergy penalty, -1 Clergy or 1 gold, is due
for each land where units ended inside another principality's borders (or on a Division land) that you did not
control when the Movement began (11; nothing at 0 Clergy and 0 gold); lands without other units change hands; for
each land taken with a City or building you may destroy any of them for -1 People and -1 Clergy once (12), never
in your own principality; then the battles, in the order you choose (13). A land where two sides stand stays its
controller's until its battle is decided: a defender who wins keeps its Princess there and its Abbey, Tiltyard or
Lancicia point (47). A land won in battle offers the destruction too.
## battles: Battles
The defender has 1 shield per gord, 2 per City, +2 for a Castle. Windows: 'before battle' cards (attacker first,
then defender, at most one card per own unit in the battle); both dice are rolled (faces: sword, sword, shield,
shield, sword+shield, coin; a coin loots 1 gold on the final face, 14); the initial count; Masovia's With the Wind
reroll of its own die once per battle (15); extra cards for a sword or shield from the corner icon (attacker
first, at most one per unit, toppled ones included, 17); damage goes to infantry, then cavalry, then Princes; a
single point on a cavalry unit is a wound; excess damage is loose wounds that extra shields cancel first (16).
The side that topples all enemies with one unit standing wins; otherwise the side that toppled more; ties and
mutual wipe-outs go to the defender. Toppled units return to their pool (Neighbours to their home area;
Pomeranians beaten at home leave the map until their land is free again). The loser withdraws unit by unit to
adjacent lands it controls, or loses the units (18); the player deciding for neutral units is the one who moved
them, else the player involved. Beaten Neighbour units may withdraw to an adjacent land only their units hold, or
go home (withdraw <unit> home, the default, 51). Winner +1 People, loser -1. 'After battle' cards are chosen
sealed by both sides at once (43). Each player who fought draws 1 Battle card (19). A neutral Prince removed in
battle returns, once the battle is over, to a land of his principality free of foreign units that the player who
removed him chooses (respawn <land>; his Capital first and by default, 52). Neutral units play no cards; their
player rolls both dice.
## dynasties: Princes, succession and elimination
At the end of Periods I and II each player whose Prince belongs to the past Period chooses one of the new
Period's living Princes (32, 45) and may then move the figure to any land they control, in turn order. A Prince
killed in battle is followed by the other Prince of the current Period, else one of the next Period; the figure
is placed on a controlled land (or waits off the map, 8). A player with no Prince left is eliminated: units become
neutral, the Princess leaves, cards, gold and tiles go back, the Princeps token passes to the next active player
in the seat cycle, and the next Round is the last (33, 44). Last player standing wins; the last players falling
together is a draw (34). Option elimination=off: play on with an heir until a later Prince can rule.
Prince cards: the ruling Prince's rule works like a held tile's: Spindleshanks (Taxes: collect clergy pays 1
Clergy instead of People, still refused at 0 People), Odonic (free Abbeys), Przemysl I (+1 People per City
founded, by any means), Boleslaw the Pious (+2 gold in Taxes while holding Calisia), Przemysl II (+1 People when
summoning a Council, before its cards), Conrad I (+1 shield against Invaders), Casimir of Kuyavia (+1 gold per
central land, at most 2), Siemowit I and Boleslaw II (Rus, resp. Lithuanian units may not end a move on your
lands), the Elbow-high (a Battle card more after a lost battle), Leszek the White (a Court card at the start of
each Round, after the History card, while Princeps), the Chaste (+1 gold in Taxes), Leszek the Black (+1 sword
against Neighbours and Invaders), Henry the Bearded (Cities 1 gold less, at least 1), Henry the Pious (+1 Clergy
after any battle against Invaders), the Bald (a coin face steals 2), Henry Probus (free Tiltyards), Henry III of
Glogow (no end-of-move penalty on lands of Polonia Maior). A player without a ruling Prince (an heir) has no rule.
## council: Councils and free actions
Council: the host (Polonia Maior holding Gnesna: +2 Clergy first, Elder Blood), then every player in turn order
plays Court and Neighbour cards for their support (pledge <card> people|clergy, then done); the host claims the
Princeps token when highest or tied-highest on 2 of the 3 tracks among the active players (Might as the track
shows it, at most 10), Polonia Minor holding Cracovia on 1 (House of Princeps, 36); all three at 10 is a
coronation and wins at once (35).
Any time (free actions, never blocking): sell <card> for 1 gold; support <card> people|clergy for the support
printed on a Court or Neighbour card (42; not during a Council); give <player> <gold> (logged publicly; promises
are not binding and nothing is held in escrow). Gold gifts are listed among a player's choices only while that
player has no decision to take; 'give <player> <amount>' is accepted at any time. The hand limit of 6 is enforced
at once: the game waits until the excess is converted. Played and discarded cards go under their deck; empty
decks draw nothing (41).
## cards: Court and Battle cards, card windows
Every card and tile text is an effect expression (rules/principes/data/components.json, 'effect') applied by one
interpreter, so the printed text is the whole rule.
Battle cards: 'before battle' cards are revealed attacker first, then defender (before <card>); their texts apply
together once both sides are done, after a Scouts cancels the opponent's first card played (not another Scouts) -
Night March closes the defender's window at once. Any Battle card may instead be played in the extra phase for its
corner icon (extra <card> sword|shield). 'After battle' cards are chosen sealed by both sides, then applied
(Ransom, Te Deum, Orderly Retreat returns the People point lost, Pursuit removes a unit that withdrew, Fortify the
Conquest builds a free Castle if you won as attacker and hold the land). A card's cost ('pay 1 gold') must be
payable when it is played, else it has no effect. Learning Chess: 'flip' or 'keep' after the initial count (after
Masovia's reroll).
Court cards: play <card> [land|player|people|clergy] at the moment the card names: during your own Taxes,
Assembly, Building or Politics action (Politics: before drawing or summoning a Council), in a Council's card phase
(Blessing, Colloquium: +2), or at any time (Chronicle of Master Vincent, Truce of God). The title and text are
announced in the channel; outside a Council every other player who is not deciding something else gets a window
to answer with the Papal Legate (cancel <card>) or pass, then the text applies. Conspiracy of Gasawa: the target
converts the 2 discarded cards for 1 gold each (the first Court/Neighbour cards of its hand). Partition among
Sons places a token on a unit-free land of another player's principality that player controls (24). Truce of
God: until the end of the Round no other player's units (nor Neighbours they move) may end a move on the chosen
land. The Heir is played by itself when its holder would be eliminated: the player stays without a Prince until a
later Prince takes the throne. Dynastic Marriage (during your Politics action, play <card> <area>) sends your
Princess, even if removed this Period, to a new legal area and resolves her arrival at once.
No leaks: a card window (battle windows, the Neighbour blocking window, the Papal Legate window) is offered to
every player who could act in it, whatever their hand; when 'pass' is a player's only answer, the host may pass
for them after a short random delay (the player's auto-pass setting), so neither the prompt nor its timing
reveals a hand.
## neighbours: Neighbour cards and armies
Before your Politics action, neighbour <card> <faction> (a joker names any Neighbour; one card per Neighbour per
action; a full-pool card costs 2 gold, paid when played and kept if blocked, 22). Every other player in turn order
gets the blocking window (block <card> with a card of that Neighbour or a joker, several allowed, or pass),
whatever their hand. Then you move at most the remaining Knights and Footmen of that Neighbour from where they
stand (move <unit> <from> <to>, undo, done) with your units' Movement Points; leaving the off-map area costs 1;
they never enter off-map areas; entering a land with other units stops them unless the owners let them pass
(ask <land>, as for your own units; your own units never stop them; 49); they may not end on a land you
controlled when the move began nor on a land of a player whose Princess is married to that Neighbour (23).
Division tokens where they stand are removed; you may destroy Cities and buildings on the lands they took,
unopposed or in battle (no track cost, 48); the battles follow in the order you choose (50), the Neighbour
attacking and you deciding for it. Their armies stay until expelled; beaten units withdraw to an adjacent land
they hold or go home (51); Pomeranians beaten at home leave until their land is free (Western Pomerania defends
with both gords).
## tiles: Progress tiles
Progress tiles act from the moment they are taken and while held: Chronicle (+1 People or Clergy, to the lower
track, for each pair of same-colour tiles when taken and for each new pair), German Settlers (a 3rd tile per
colour, this one included), Church Schools (one more tile for 2 gold in each Progress action, this one included),
New Mechanisms (as <action> instead of the Progress action), Ducal Mint and Market Rights (on Taxes), Treasury
Vault, Rent in Coin (end of a Round without Taxes), Mounts for Infantry (Footmen 3 points), Bishops' Safe-Conduct
(penalty for at most 1 land), Border Guards (your lands stop foreign units, who may ask to pass), Learning Chess,
Wici (+2 units), Training Grounds (a Battle card per Tiltyard in each Assembly), Castle Garrisons, Knightly Fiefs,
French Style (+1 Clergy more for an Abbey, also one built by a card), Brick Kilns (3 buildings), Town Locators (2
Cities), Town Walls, Heralds of Peace (support <battle card> people|clergy), Knightly Culture (every Council),
Ducal Chancery (hand limit 9).
## history: History cards, icons and Invaders
After the direction the History card is revealed and its text applied, to every player in turn order (the
Princeps first); "In this Round" texts last until the Round ends (Spring Thaw also slows the Neighbours and
Invaders you move). Texts that offer a choice ask each player in turn: choose pay|clergy (Tithes: only what you
can do), found <gord> (Magdeburg Law: a land you control with no City, usual price) or build castle <land> (1
gold), place <land> or stay (your Prince). The icons are announced, and at the end of every Round but the last
they resolve, the upper one first, each player in turn: Division (division <land>: a unit-free land of another
player that they control, even a Princess counts as a unit, 24), Urbanization (found <gord>: a free City on a land
you do not control; its Might goes to the land's controller, 26), Release to Home (release <unit> <land>: one
Knight or Footman, never the Prince, 27), Common Council (every player plays Council cards in turn; no host: a
player with all three tracks at 10 is crowned, else the Princeps keeps the token if qualified, else the first
qualified player in turn order claims it; a coronation beats the token, 35), Balt Raid, Teutonic Knights and
Mongol Invasion.
Invaders (Prussians, Lithuanians, Teutonic Knights, Mongols): moved like Neighbours (move, ask <land> for passage,
undo, done; all of the faction's units; 49) but never removing Division tokens; they may not end on a land you
controlled when the move began (23). After the move they attack where they stand with others, in the order you
choose (50); a beaten Invader goes home (Mongols may withdraw to an adjacent land without units or tokens, else
they leave the map, 29); every City and building where they stand alone afterwards is destroyed, and a Princess
there leaves (devastation, 30); then they go home. Balt Raid: the Princeps moves the Prussians (not while Teutonic
Knights stand on the map), then the Lithuanians. Teutonic Knights: with none on the map, whoever controls Culmen
may call them (call): 2 Knights, a Civitas if the gord has no City, a Castle if one is left; its building goes;
the land is theirs at once and your units there withdraw one at a time to adjacent lands you control, where you
choose (withdraw <unit> <land>; none: they go to your pool; 28, 53). With Knights on the map the Princeps moves
them; beaten or back from a raid they return to Culmen, waiting off the map while others hold it. Mongol
Invasion: 4, 3, 2, then 1 riders enter the Rus Fiefdoms; each player in turn order may move the surviving horde
from where it stands; after the last move the survivors leave the map.
## princesses: Princesses
At the start of each Period, after the Princeps chose the turn order and before the History card (31), the old
Princesses leave the map and each player in turn order sends one (send <area>): to a Neighbour's area (a German,
Bohemian, Hungarian or Rus off-map area, or the Pomeranian land: that Neighbour's units, moved by anyone, cannot
end a move on your lands this Period, 23), to your own Capital if you control it (draw court or draw neighbour now
and at the start of the Period's second Round) or to another player's Capital if they control it (they discard a
Court or Neighbour card of their choice now and next Round; they may sell or play cards for support first).
Never the area of her previous mission, never an area another Princess holds. She leaves the map (until the next
Period) when the land she stands on changes hands (taken by movement or won in battle: foreign units, or her own
player's units for a saboteur; an attack its defender wins changes nothing, 47), when it is devastated, and when
her player is eliminated. Lady of the Court: each of her draws or discards is 2 cards. Sending her is always
possible (4 Neighbour areas off the map); the deadline default is the first listed area (your own Capital when
allowed), a Court card, or the first Court/Neighbour card of the hand.
## neutrals: Games for 2 and 3 players
Option neutrals=passive (default): the neutral principalities only defend; option neutrals=active (38): after
each Assembly, Movement or Building you may perform the Combined Actions tile's action for one neutral
principality: combined assemble <faction> (up to 3 units of its pool, Knights first, into its Capital for free, if
no foreign unit stands there), combined move <faction> (all its Knights and Footmen, moved like a Neighbour army:
they never end on your own lands, you choose their battles' order and decide their withdrawals) or combined castle
<land> (a free Castle on a land it controls); or done (the deadline default). A neutral Prince removed in battle
returns to his own land, where the player who removed him chooses (52).
## deadlines: Deadlines and refusals
A missing plan is sealed with the AI's plan for that seat; an unanswered consent is a denial; an unanswered card
window passes; an unfinished Neighbour or Invader move ends (or takes back its last move until it may end); an
unanswered action prompt skips (ends) the action; other prompts take their first choice (keep the buildings, the
first battle in map order, the first withdrawal land - home for Neighbours -, the neutral Prince's Capital, the
first Prince).
An answer that is not possible says why (the decision being taken, an unknown word, a card not in your hand, a
card's corner or timing, a cost you cannot pay, lands that share no border, a land you do not control) and shows
the closest answers. Cards, tiles, lands, gords, areas and factions may be typed by title or name, in any case,
without accents (sell papal legate, move knight posnania sremium); a name that fits two different answers is
refused with both.
## ai: AI levels
`expert` (the default) plays as `strong` until the last two Rounds; there it searches its plan, the turn order
direction, Politics, its Council cards and its actions' choices for up to a second each (`expert:3s` for longer):
it draws the hands, decks and plans it cannot see from what its own view shows, plays each answer out to the end of
the game with `strong` on every seat, and keeps the answer that wins most often. `strong` plays for the Princeps
token at the end of the last Round: it plans by the clock, pledges to lead its own Council or to stop a rival's,
and moves with exact battle odds. `basic` plans simple Rounds, takes free land and fights only with the odds in
its favour; `random` takes any legal action. /game ai and the lobby show each level's measured strength.
## orders: Standing orders (answers given in advance)
/orders sets answers the host gives for you when a decision arises, a random 20 to 120 seconds after it arises (as
the automatic pass), exactly as if you had clicked them; you are still asked, and may answer first. Only you see
your orders and the note "answered by standing order". An order whose answer is not possible at that moment is
ignored: you are asked. Each order is "ask me" or: consent to passage, always allow, always deny, or
allow the principalities named and deny the others (a plain allow/deny of that request: 'standing <player>
allow|deny' stays the public answer of the rules); card windows (before and after battle, extra sword or shield,
cancelling a Court card, blocking a Neighbour), pass unless an answer would play a card you marked (by id, title,
or a whole deck: battle, court, neighbour); Council cards: this implementation's Council has no vote (its host
leads it on the tracks, 35), so the order is "keep my cards" (done) unless a card you marked could be pledged or
played, or "pledge": every card you can, each for its first support track, for your own support ("for myself");
Taxes, collect at once; the Princess's card, Court or Neighbour; and for the Princess mission, the discard to a
foreign Princess, Release, Division, Urbanization, History builds and choices, the Teutonic call and rerolling or
flipping a die, what a missed deadline gives (see Deadlines); as the Princeps, the turn order direction, always
clockwise or always counter-clockwise ("The Principes may choose a direction either clockwise or
counterclockwise"); the Invaders and a Neighbour card's army you move, what a missed deadline gives or "at the
leader" (each unit next to a land of the rival with the most Might moves onto it, then the move ends); the hand
limit, what a missed deadline gives or "Battle cards first" (sold first, then cards played for support on your
lower track). A game begins with the recommended orders (/orders lists them, and what each gives up) for every
player whose /settings orders is on (the default); the others are "ask me" until set.

## ahead: Answers collected ahead
Where the rulebook fixes an order of players and each player's answer is their own, the later players may answer
before their turn: Division ("During the Division, each player (in the set order) may (but is not required to)
place 1 Division Token"), Urbanization ("During Urbanization, each player (in the set order) may (but is not
required to) found 1 City for free"), Release to Home ("During Release to Home, each player (in the set order)
must remove their 1 Footman or 1 Knight"), and the History texts that let each player choose or build ("Their
effects (if they affect more than one player) are carried out in the set order"). The Princess missions are
collected ahead too, not asked at the same time: the rulebook fixes their order ("At the start of the game, after
players draw their initial cards and the Princes sets the turn order direction, each player (in the set order),
assigns their Princess to one of three tasks") and an earlier mission may take a later one's area ("Only one
Princess can occupy one area at a time"); a later player's choice whose area an earlier Princess took (or that is
no longer allowed) falls to their next choice, and with none left they are asked; the draws and discards an
earlier mission causes come first and give nothing of it. While an earlier player is asked, /ahead shows a later
player what their turn will ask, as the board stands, and takes up to three answers, first choice first. The order
of play is kept: the answers are applied only when each turn comes, in turn order, exactly as that player's
click; the first of their answers still allowed then is given (after the earlier players' answers, which they see
as they arrive, and they may change theirs until their turn comes); if none is allowed then, they are asked as
usual. Nobody else sees an answer given ahead. The Common Council is not collected ahead (a player pledges card
after card, and the verdict follows the tracks as they stand).
A player who seals a plan with Taxes may also answer its Taxes choice at once (collect when the action comes, or
be asked then; /ahead collect or /ahead ask changes it until the action comes): the answer is given as their
click when that Round's planned Taxes action comes, if allowed then (a Progress token used as Taxes is asked).

## together: Decisions asked together
Option together, a table's choice. on: asked of everyone at once, sealed, fewer waits; off (default): one after
another, as the rulebook. Off is the default because on changes what a player sees: a later player no longer sees
the earlier players' choices before making their own. With together=on, where the rulebook asks the players one
after the other and each answer is the player's own, every player with something to decide is asked at once,
sealed as the plans are, and nobody sees another's answer before all are sealed. The answers then apply in
turn order, each at its player's turn as that player's click; one no longer allowed then (an earlier player founded
that City first, an earlier Princess took that area) is dropped and that player is asked again, seeing the board.
The order of play is kept: a later player only gives up seeing the earlier answers before choosing. Asked together:
Division, Urbanization, Release to Home and the History texts that let each player choose, build or move their
Prince ("each player (in the set order)"); at the end of a Period the choice of the new Prince, then the placement
of his figure (45: each player chooses among their own Princes and places on their own lands); the Princess
missions (31), then the draws and discards they cause, which come once every mission is placed (a draw or a discard
changes no one's areas), and the second Round's draws and discards. With together=off (and in a game begun
before the option existed) they are asked one player after the other, and the later players may answer ahead (see
ahead).
Kept one after the other, because a later player sees and may answer what an earlier one did: the battle card
windows ("The attacking player decides first whether to play cards, followed by the defending player"; the extra
sword and shield cards likewise; the 'after battle' cards are already chosen together, 43), the Councils ("Players
play their cards one after another"), passage consent, and the players' own actions. Taxes is only the acting
player's decision.
"""
