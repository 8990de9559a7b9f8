/* Nine Lives, 4 players, round 0 (docs/rules/nine-lives.md; powers out of scope): one suit
 * of ranks 1..9 per
 * player, card c of suit c/9, rank c%9+1; 9 cards each. Everyone bids a card at once (it
 * leaves the hand; its rank is the bid, its suit is ignored for that player). The Kittykeeper
 * (seat 0) leads; trump is the Kittykeeper's bid suit; follow the lead suit if able. Among the
 * cards not of their player's bid suit the highest trump, else the highest of the lead suit,
 * wins; none: the Kittykeeper keeps it. The winner becomes the Kittykeeper. A seat scores its
 * bid's rank if its tricks equal its bid, or if it shares a bid suit with others (not all
 * seats) and their tricks equal their bids together. Rate: made. */
#define PLAYERS 4
#include "common.h"

#define RANKS 9
#define CARDS (RANKS * PLAYERS)
#define HAND (CARDS / PLAYERS)
#define SUIT(s) (0x1FFULL << (RANKS * (s)))

static inline int strength(int card, int own_suit, int trump, int lead) {
    int suit = card / RANKS, rank = card % RANKS + 1;
    if (suit == own_suit) return 0;
    return suit == trump ? 100 + rank : suit == lead ? rank : 0;
}

static void play(long n) {
    for (long d = 0; d < n; d++) {
        set hands[PLAYERS] = {0};
        deal(hands, PLAYERS, HAND, CARDS);
        int bid_suit[PLAYERS], bid[PLAYERS], tricks[PLAYERS] = {0}, keeper = 0;
        for (int s = 0; s < PLAYERS; s++) {
            int card = pick(hands[s]);
            hands[s] &= ~(1ULL << card);
            bid_suit[s] = card / RANKS, bid[s] = card % RANKS + 1;
        }
        for (int t = 0; t < HAND - 1; t++) {
            int trump = bid_suit[keeper], card = pick(hands[keeper]);
            hands[keeper] &= ~(1ULL << card);
            int lead = card / RANKS, best = strength(card, bid_suit[keeper], trump, lead), winner = keeper;
            for (int i = 1; i < PLAYERS; i++) {
                int seat = (keeper + i) % PLAYERS;
                set same = hands[seat] & SUIT(lead);
                card = pick(same ? same : hands[seat]);
                hands[seat] &= ~(1ULL << card);
                int k = strength(card, bid_suit[seat], trump, lead);
                if (k > best) best = k, winner = seat;
            }
            tricks[winner]++;
            keeper = winner;
        }
        int score[PLAYERS], made[PLAYERS], one_team = 1;
        for (int s = 1; s < PLAYERS; s++) one_team &= bid_suit[s] == bid_suit[0];
        for (int s = 0; s < PLAYERS; s++) {
            int size = 0, team_tricks = 0, team_bids = 0;
            for (int o = 0; o < PLAYERS; o++)
                if (bid_suit[o] == bid_suit[s]) size++, team_tricks += tricks[o], team_bids += bid[o];
            made[s] = tricks[s] == bid[s] || (size >= 2 && !one_team && team_tricks == team_bids);
            score[s] = made[s] ? bid[s] : 0;
        }
        tally(PLAYERS, score, tricks, made, 0);
    }
}
