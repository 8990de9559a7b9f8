/* Out-Trumped, 4 players, default rules (wild = dealer, follow = overtake, no kitty;
 * docs/rules/out-trumped.md):
 * 60 cards, card c of suit c/12, rank c%12+1; 15 cards each. A six-faced die picks trump: a
 * suit, or wild, when the dealer (seat 3) picks one of the 5 suits. Seat 0 leads. A follower
 * must beat every led-suit card in the trick with the led suit if able, else follow suit, else
 * trump, else anything; highest trump, else highest of the led suit, wins. Score: +1 a trick;
 * among seats with t >= 1 trumps captured: a sole one +2t, else the most +t and (if fewer) the
 * fewest -t. Rate: out-trumped (a negative bonus). */
#define PLAYERS 4
#include "common.h"

#define CARDS 60
#define RANKS 12
#define HAND 15
#define SUIT(s) (0xFFFULL << (RANKS * (s)))

static inline int strength(int card, int trump, int led) {
    int suit = card / RANKS, rank = card % RANKS + 1;
    return suit == trump ? 100 + rank : suit == led ? rank : 0;
}

static void play(long n) {
    for (long d = 0; d < n; d++) {
        set hands[PLAYERS] = {0};
        deal(hands, PLAYERS, HAND, CARDS);
        int trump = (int)below(6);
        if (trump == 5) trump = (int)below(5);  /* wild: the dealer's pick */
        set trumps_set = SUIT(trump);
        int tricks[PLAYERS] = {0}, trumps[PLAYERS] = {0}, leader = 0;
        for (int t = 0; t < HAND; t++) {
            int card = pick(hands[leader]);
            set in_trick = 1ULL << card;
            hands[leader] &= ~in_trick;
            int led = card / RANKS, top = card % RANKS + 1;
            int best = strength(card, trump, led), winner = leader;
            for (int i = 1; i < PLAYERS; i++) {
                int seat = (leader + i) % PLAYERS;
                set h = hands[seat], same = h & SUIT(led);
                set higher = same & ~((1ULL << (led * RANKS + top)) - 1), trump_cards = h & trumps_set;
                card = pick(higher ? higher : same ? same : trump_cards ? trump_cards : h);
                hands[seat] &= ~(1ULL << card);
                in_trick |= 1ULL << card;
                if (card / RANKS == led && card % RANKS + 1 > top) top = card % RANKS + 1;
                int k = strength(card, trump, led);
                if (k > best) best = k, winner = seat;
            }
            tricks[winner]++;
            trumps[winner] += count(in_trick & trumps_set);
            leader = winner;
        }
        int holders = 0, most = -1, fewest = 1 << 20;
        for (int s = 0; s < PLAYERS; s++)
            if (trumps[s] >= 1) {
                holders++;
                if (trumps[s] > most) most = trumps[s];
                if (trumps[s] < fewest) fewest = trumps[s];
            }
        int score[PLAYERS], out[PLAYERS];
        for (int s = 0; s < PLAYERS; s++) {
            int t = trumps[s], bonus = 0;
            if (t >= 1) bonus = holders == 1 ? 2 * t : t == most ? t : (t == fewest && fewest < most) ? -t : 0;
            score[s] = tricks[s] + bonus;
            out[s] = bonus < 0;
        }
        tally(PLAYERS, score, tricks, out, 0);
    }
}
