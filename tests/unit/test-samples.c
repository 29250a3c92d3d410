// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

#include "samples.h"
#include "test.h"

static void test_round_trip(void)
{
	char path[] = "/tmp/sched-bot-samples.XXXXXX";
	struct sample_set set = { 0 };
	struct sample s;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	unlink(path);
	sample_init(&s);
	s.label = "base";
	s.kernel = "6.1.0";
	s.workload = "spawn";
	s.params = "copies=2, t=5";		/* comma: must be quoted */
	s.run = 3;
	s.metric = "lps";
	s.value = 6895.123456789012;
	s.unit = "lps";
	s.cgroup = "/user.slice/\"odd\"";	/* quotes inside */
	s.cpu_usr = 12.5;
	s.nr_cpus = 2;
	CHECK(samples_append_file(path, &s, 1) == 0);
	s.run = 4;
	CHECK(samples_append_file(path, &s, 1) == 0);
	CHECK(samples_read_file(path, &set) == 0);
	CHECK_INT(set.nr, 2);
	if (set.nr == 2) {
		CHECK_STR(set.v[0].params, "copies=2, t=5");
		CHECK_STR(set.v[1].cgroup, "/user.slice/\"odd\"");
		CHECK(set.v[0].value == 6895.123456789012);
		CHECK_INT(set.v[1].run, 4);
		CHECK(isnan(set.v[0].cpu_sys));
		CHECK_NEAR(set.v[0].cpu_usr, 12.5, 0);
		CHECK_INT(set.v[0].nr_cpus, 2);
		CHECK(set.v[0].placement == NULL);
	}
	sample_set_release(&set);
	unlink(path);
}

static void test_errors(void)
{
	struct sample_set set = { 0 };
	const char *missing = "label,kernel,workload\nx,y,z\n";
	const char *nonnum =
		"label,kernel,workload,params,run,metric,value,unit,"
		"higher_is_better\nb,k,spawn,,1,lps,12,lps,1\n"
		"b,k,spawn,,2,lps,abc,lps,1\n";

	CHECK(samples_read_buf("m.csv", missing, strlen(missing), &set) < 0);
	CHECK(samples_read_buf("e.csv", "", 0, &set) < 0);
	CHECK(samples_read_buf("n.csv", nonnum, strlen(nonnum), &set) < 0);
	CHECK_INT(set.nr, 1);	/* the good row before the bad one */
	sample_set_release(&set);
}

/*
 * A write that stops part-way (a full disk; here RLIMIT_FSIZE, which
 * cuts a write(2) short the same way) leaves the file as it was: the
 * rows of one append all or none, and a file the append made is gone.
 */
static void test_append_all_or_none(void)
{
	char path[] = "/tmp/sched-bot-samples.XXXXXX";
	struct sample_set set = { 0 };
	struct sample s[3];
	struct rlimit old, lim;
	struct stat st;
	off_t size;
	int fd = mkstemp(path), i;

	CHECK(fd >= 0);
	close(fd);
	unlink(path);
	for (i = 0; i < 3; i++) {
		sample_init(&s[i]);
		s[i].label = "base";
		s[i].kernel = "6.1.0";
		s[i].workload = "pingpong";
		s[i].metric = "ops";
		s[i].unit = "ops/s";
		s[i].run = i + 1;
		s[i].value = 100 + i;
	}
	CHECK(samples_append_file(path, s, 1) == 0);
	CHECK(stat(path, &st) == 0);
	size = st.st_size;
	signal(SIGXFSZ, SIG_IGN);
	CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
	lim = old;
	lim.rlim_cur = (rlim_t)size + 40;	/* half of the next row */
	CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	CHECK(samples_append_file(path, s + 1, 2) < 0);
	CHECK(stat(path, &st) == 0);
	CHECK_INT(st.st_size, size);
	CHECK(disk_full_path() == NULL);	/* EFBIG is not a full disk */
	/* a new file that cannot take its header is not left empty */
	unlink(path);
	lim.rlim_cur = 10;
	CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	CHECK(samples_append_file(path, s, 1) < 0);
	CHECK(stat(path, &st) < 0);
	CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
	signal(SIGXFSZ, SIG_DFL);
	CHECK(samples_append_file(path, s, 3) == 0);
	CHECK(samples_read_file(path, &set) == 0);
	CHECK_INT(set.nr, 3);
	sample_set_release(&set);
	unlink(path);
}

int main(void)
{
	TEST_NAME("test-samples");
	RUN(test_round_trip);
	RUN(test_errors);
	RUN(test_append_all_or_none);
	return test_done();
}
