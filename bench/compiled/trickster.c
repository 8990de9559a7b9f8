/* Trickster prototype A, 4 players (docs/rules/trickster.md): 52 cards, card c of suit c/13,
 * rank c%13+1;
 * 13 cards each as a face-up tableau; 4 hands circulate. Each turn every seat at once adds a
 * tableau card to the hand it holds (of the hand's suit if it can): a card of another suit, or
 * one pushing the pip sum over 13 (J, Q, K add 0), makes it collect the hand first and start a
 * new one; then hands pass right. At the end each collects the hand it holds. Points: A..10 1,
 * J 2, Q 3, K 4, except in a suit where the seat collected strictly the most cards (the moon).
 * Lowest score wins; tricks = collections. Rate: moon in at least one suit. */
#define PLAYERS 4
#include "common.h"

#define CARDS 52
#define RANKS 13
#define TURNS (CARDS / PLAYERS)
#define SUIT(s) (0x1FFFULL << (RANKS * (s)))

static int PIPS[CARDS], POINTS[CARDS];

static void play(long n) {
    for (int c = 0; c < CARDS; c++) {
        int rank = c % RANKS + 1;
        PIPS[c] = rank <= 10 ? rank : 0;
        POINTS[c] = rank <= 10 ? 1 : rank - 9;
    }
    for (long d = 0; d < n; d++) {
        set tableau[PLAYERS] = {0}, hand[PLAYERS] = {0}, collected[PLAYERS] = {0};
        int pips[PLAYERS] = {0}, suit[PLAYERS], collections[PLAYERS] = {0};
        deal(tableau, PLAYERS, TURNS, CARDS);
        for (int t = 0; t < TURNS; t++) {
            for (int s = 0; s < PLAYERS; s++) {  /* the choices are independent: play them in turn */
                set follow = hand[s] ? tableau[s] & SUIT(suit[s]) : 0;
                int card = pick(follow ? follow : tableau[s]);
                tableau[s] &= ~(1ULL << card);
                int fresh = !hand[s] || card / RANKS != suit[s] || pips[s] + PIPS[card] > 13;
                if (fresh && hand[s]) collected[s] |= hand[s], collections[s]++;
                if (fresh) hand[s] = 1ULL << card, pips[s] = PIPS[card], suit[s] = card / RANKS;
                else hand[s] |= 1ULL << card, pips[s] += PIPS[card];
            }
            if (t < TURNS - 1) {  /* to the right: seat s gets seat s+1's hand */
                set h0 = hand[0]; int p0 = pips[0], s0 = suit[0];
                for (int s = 0; s < PLAYERS - 1; s++)
                    hand[s] = hand[s + 1], pips[s] = pips[s + 1], suit[s] = suit[s + 1];
                hand[PLAYERS - 1] = h0, pips[PLAYERS - 1] = p0, suit[PLAYERS - 1] = s0;
            }
        }
        for (int s = 0; s < PLAYERS; s++) collected[s] |= hand[s], collections[s]++;
        int score[PLAYERS] = {0}, moon[PLAYERS] = {0};
        for (int k = 0; k < 4; k++) {
            int most = 0, holders = 0, who = -1;
            for (int s = 0; s < PLAYERS; s++) {
                int c = count(collected[s] & SUIT(k));
                if (c > most) most = c, holders = 1, who = s;
                else if (c == most) holders++;
            }
            for (int s = 0; s < PLAYERS; s++) {
                if (holders == 1 && s == who) { moon[s]++; continue; }
                for (set cards = collected[s] & SUIT(k); cards; cards &= cards - 1) score[s] += POINTS[lowest(cards)];
            }
        }
        for (int s = 0; s < PLAYERS; s++) moon[s] = moon[s] > 0;
        tally(PLAYERS, score, collections, moon, 1);
    }
}
