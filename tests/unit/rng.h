/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rng.h - reproducible random numbers for the statistics unit tests:
 * xorshift64* for uniforms, Box-Muller for normal deviates.  Set
 * rng_state to a fixed seed before each simulation.
 */
#ifndef TEST_RNG_H
#define TEST_RNG_H

#include <math.h>
#include <stdint.h>

static uint64_t rng_state = 0x5eedULL;

static inline double rng_uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((rng_state * 2685821657736338717ULL) >> 11) *
	       (1.0 / 9007199254740992.0);
}

static inline double rng_normal(void)
{
	double u = rng_uniform(), v = rng_uniform();

	if (u < 1e-300)
		u = 1e-300;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

#endif
