/* What the five reference loops share: a fast PRNG, uniform picks from bit sets, and the
 * per-seat tallies they print. Each loop plays N whole deals (round 0 of a fresh match, as
 * `simtool run` does by default) with every seat choosing uniformly among its legal options.
 *
 *     ./loop N SEED    prints "seconds T" then one line per seat:
 *     seat S score MEAN SD tricks MEAN SD rate MEAN win MEAN
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef uint64_t set;

static uint64_t rng_s[4];

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void seed_rng(uint64_t seed) {
    for (int i = 0; i < 4; i++) rng_s[i] = splitmix(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256** */
static inline uint64_t next64(void) {
    uint64_t r = rotl(rng_s[1] * 5, 7) * 9, t = rng_s[1] << 17;
    rng_s[2] ^= rng_s[0]; rng_s[3] ^= rng_s[1]; rng_s[1] ^= rng_s[2]; rng_s[0] ^= rng_s[3];
    rng_s[2] ^= t; rng_s[3] = rotl(rng_s[3], 45);
    return r;
}

/* uniform in 0..n-1 (n small): the high 32 bits scaled, bias below 2^-26 */
static inline unsigned below(unsigned n) { return (unsigned)(((next64() >> 32) * n) >> 32); }

static inline int count(set s) { return __builtin_popcountll(s); }
static inline int lowest(set s) { return __builtin_ctzll(s); }

/* the k-th smallest member of s (k from 0) */
static inline int select_bit(set s, int k) {
    while (k--) s &= s - 1;
    return __builtin_ctzll(s);
}

/* a member of the non-empty set s, uniformly */
static inline int pick(set s) { return select_bit(s, (int)below((unsigned)count(s))); }

/* the first k cards of a uniform shuffle of 0..cards-1, into out */
static inline void shuffle(int *deck, int cards, int k) {
    for (int i = 0; i < cards; i++) deck[i] = i;
    for (int i = 0; i < k && i < cards - 1; i++) {
        int j = i + (int)below((unsigned)(cards - i));
        int t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
}

/* a uniform deal of hand cards to each of players seats from 0..cards-1, as card sets */
static inline void deal(set *hands, int players, int hand, int cards) {
    int deck[64];
    shuffle(deck, cards, players * hand);
    for (int s = 0; s < players; s++) hands[s] = 0;
    for (int i = 0; i < players * hand; i++) hands[i / hand] |= 1ULL << deck[i];
}

#define MAXP 6
static double sum_score[MAXP], sq_score[MAXP], sum_tricks[MAXP], sq_tricks[MAXP],
    sum_rate[MAXP], sum_win[MAXP];

/* one deal's per-seat results into the tallies; win shares split among the best scores */
static inline void tally(int p, const int *score, const int *tricks, const int *rate, int lower_wins) {
    int best = score[0], leaders = 0;
    for (int s = 1; s < p; s++) best = lower_wins ? (score[s] < best ? score[s] : best)
                                                  : (score[s] > best ? score[s] : best);
    for (int s = 0; s < p; s++) leaders += score[s] == best;
    for (int s = 0; s < p; s++) {
        sum_score[s] += score[s]; sq_score[s] += (double)score[s] * score[s];
        sum_tricks[s] += tricks[s]; sq_tricks[s] += (double)tricks[s] * tricks[s];
        sum_rate[s] += rate[s];
        if (score[s] == best) sum_win[s] += 1.0 / leaders;
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void report(int p, long n, double seconds) {
    printf("seconds %.6f\n", seconds);
    for (int s = 0; s < p; s++) {
        double ms = sum_score[s] / n, mt = sum_tricks[s] / n;
        double vs = sq_score[s] / n - ms * ms, vt = sq_tricks[s] / n - mt * mt;
        printf("seat %d score %.6f %.6f tricks %.6f %.6f rate %.6f win %.6f\n", s, ms,
               vs > 0 ? __builtin_sqrt(vs) : 0, mt, vt > 0 ? __builtin_sqrt(vt) : 0,
               sum_rate[s] / n, sum_win[s] / n);
    }
}

static void play(long n);

int main(int argc, char **argv) {
    long n = argc > 1 ? (long)atof(argv[1]) : 1000000;
    seed_rng(argc > 2 ? strtoull(argv[2], 0, 10) : 1);
    double start = now();
    play(n);
    report(PLAYERS, n, now() - start);
    return 0;
}
