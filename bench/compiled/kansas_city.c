/* Kansas City, 4 players (docs/rules/kansas-city.md): 56 cards, card c (0..55) of suit c/8,
 * rank c%8+1;
 * 14 cards each. Everyone passes 3 cards to the left at once; seat 0 leads. Follow the led
 * suit (an upgraded card is trump only); highest trump, else highest of the led suit, wins.
 * After every trick but the last each loser, clockwise from the winner's left, may upgrade one
 * non-trump card of a rank no player holds an unplayed trump of (or decline; each eligible card
 * and "decline" are the options). Score: 0,5,10,15,5,0 for 0..5+ tricks, +2 per captured 4.
 * Rate: overshoot (more than 3 tricks). */
#define PLAYERS 4
#include "common.h"

#define CARDS 56
#define HAND 14
#define PASS 3
#define SUIT(s) (0xFFULL << (8 * (s)))
#define EVERY_SUIT 0x0001010101010101ULL  /* times a rank byte: those ranks in every suit */
#define FOURS (0x08ULL * EVERY_SUIT)

static const int TABLE[6] = {0, 5, 10, 15, 5, 0};

/* the cards of every suit whose rank is among those in cards */
static inline set same_ranks(set cards) {
    set folded = cards | (cards >> 32);
    folded |= folded >> 16;
    folded |= folded >> 8;
    return (folded & 0xFF) * EVERY_SUIT;
}

static inline int key(int card, set trump, int led_suit) {
    int rank = card % 8 + 1;
    if (trump >> card & 1) return 16 + rank;
    return card / 8 == led_suit ? rank : 0;
}

static void play(long n) {
    for (long d = 0; d < n; d++) {
        set hands[PLAYERS] = {0}, passing[PLAYERS] = {0}, trump = 0, played = 0;
        deal(hands, PLAYERS, HAND, CARDS);
        for (int s = 0; s < PLAYERS; s++)
            for (int k = 0; k < PASS; k++) passing[s] |= 1ULL << pick(hands[s] & ~passing[s]);
        for (int s = 0; s < PLAYERS; s++) hands[s] &= ~passing[s];
        for (int s = 0; s < PLAYERS; s++) hands[(s + 1) % PLAYERS] |= passing[s];
        int tricks[PLAYERS] = {0}, fours[PLAYERS] = {0}, leader = 0;
        for (int t = 0; t < HAND; t++) {
            int card = pick(hands[leader]);
            set in_trick = 1ULL << card;
            hands[leader] &= ~in_trick;
            int trump_led = (int)(trump >> card & 1), led_suit = card / 8;
            int best = key(card, trump, led_suit), winner = leader;
            for (int i = 1; i < PLAYERS; i++) {
                int seat = (leader + i) % PLAYERS;
                set same = trump_led ? hands[seat] & trump : hands[seat] & ~trump & SUIT(led_suit);
                card = pick(same ? same : hands[seat]);
                hands[seat] &= ~(1ULL << card);
                in_trick |= 1ULL << card;
                int k = key(card, trump, led_suit);
                if (k > best) best = k, winner = seat;
            }
            played |= in_trick;
            tricks[winner]++;
            fours[winner] += count(in_trick & FOURS);
            if (t < HAND - 1)
                for (int i = 1; i < PLAYERS; i++) {
                    int seat = (winner + i) % PLAYERS;
                    set eligible = hands[seat] & ~trump & ~same_ranks(trump & ~played);
                    unsigned choice = below((unsigned)count(eligible) + 1);  /* last: decline */
                    if (choice < (unsigned)count(eligible)) trump |= 1ULL << select_bit(eligible, (int)choice);
                }
            leader = winner;
        }
        int score[PLAYERS], over[PLAYERS];
        for (int s = 0; s < PLAYERS; s++) {
            score[s] = TABLE[tricks[s] < 5 ? tricks[s] : 5] + 2 * fours[s];
            over[s] = tricks[s] > 3;
        }
        tally(PLAYERS, score, tricks, over, 0);
    }
}
