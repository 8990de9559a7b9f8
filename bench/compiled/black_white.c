/* Black & White, 3 players (docs/rules/black-white.md): 36 cards, card c (0..35) counts
 * black c+1 or white 36-c;
 * 12 cards each, seat 0 leads; the leader picks a card and a colour, every card may follow;
 * highest number in the announced colour wins. Score: b == w -> +(b+w), else -(b+w).
 * Rate: balanced (b == w). */
#define PLAYERS 3
#include "common.h"

#define CARDS 36
#define HAND 12

static void play(long n) {
    for (long d = 0; d < n; d++) {
        set hands[PLAYERS] = {0};
        deal(hands, PLAYERS, HAND, CARDS);
        int black[PLAYERS] = {0}, white[PLAYERS] = {0}, leader = 0;
        for (int t = 0; t < HAND; t++) {
            int card = pick(hands[leader]);
            hands[leader] &= ~(1ULL << card);
            int colour = (int)below(2);  /* 0 black, 1 white */
            int best = colour ? CARDS - card : card + 1, winner = leader;
            for (int i = 1; i < PLAYERS; i++) {
                int seat = (leader + i) % PLAYERS;
                card = pick(hands[seat]);
                hands[seat] &= ~(1ULL << card);
                int value = colour ? CARDS - card : card + 1;
                if (value > best) best = value, winner = seat;
            }
            if (colour) white[winner]++; else black[winner]++;
            leader = winner;
        }
        int score[PLAYERS], tricks[PLAYERS], balanced[PLAYERS];
        for (int s = 0; s < PLAYERS; s++) {
            tricks[s] = black[s] + white[s];
            balanced[s] = black[s] == white[s];
            score[s] = balanced[s] ? tricks[s] : -tricks[s];
        }
        tally(PLAYERS, score, tricks, balanced, 0);
    }
}
