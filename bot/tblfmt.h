/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tblfmt.h - which table format a thread uses.  The result tables
 * already posted in a thread, quoted ("> ", any depth) or not, each
 * classified as one of the formats `compare -f` renders, so the bot
 * replies in the terms the thread's testers use.
 *
 * What counts as a table (lines are read after their quote prefix, runs
 * of blanks as one; only a line's first TBLFMT_LINE_MAX bytes are read):
 *
 *   intel    a header with "baseline(std%)" and "compare%(std%)", blanks
 *            ignored: "case  load  baseline(std%)  compare%( std%)"
 *   amd      a "[pct imp](CV)" column header (the "Test / Units /
 *            Interpretation / Statistic" blocks), or a row with two
 *            "(x.xx pct)" cells (AMD's older tables)
 *   lkp      the "%stddev %change %stddev" header of the kernel test
 *            robot (or its "fail:runs %reproduction fail:runs")
 *   mmtests  rows "<stat> <operation> <value> (  x.xx%)" (or "*  x.xx%*"),
 *            one of them Amean, Hmean or Gmean (BAmean-95 and the like too)
 *   matrix   a header of three or more cells between '|' that does not
 *            start with '|' or '+' and holds no code ("Arch | commit
 *            eff6c8ce8d4d | Fork Result (lps) | %Cpu(s)", Dietmar's
 *            "CFG_SCHED_AUTOGROUP | sched_ag_enabled | ...")
 *   simple   a header in columns (a tab or two blanks inside) with a
 *            "w/o" token before a "w/" one: "w/o patch	w/ patch"
 *
 * A header needs a data row, a line with a digit, within the next
 * four lines of the same quote depth (blank lines and rules of - = + |
 * are skipped); the rows that follow up to the next blank line belong to
 * the same table.  Lines of a diff ("diff --git" to the end of that
 * quote level) are not read: code is not a table.
 *
 * Each table counts once.  A table is known by its header and first data
 * row (quote prefixes and blank runs ignored).  Where it is written
 * unquoted, that message is its origin and every other copy (quoted in
 * a reply, or a commit message repeated by tip-bot) is a repeat.  A
 * table found only quoted, its original not in the thread, counts once,
 * for the earliest message quoting it.  "Earliest" and "latest" order by
 * Date:, then by place in the mbox.
 *
 * The choice.  A format's uses are the messages holding at least one
 * counted table of it (a tester posting ten tables in one mail uses the
 * format once).  The format with the most uses wins; a tie goes to the
 * format whose last use is the latest.  The pick names that format and
 * its last use: the message-id and author a reply can cite.  A thread
 * with no table has no pick.
 *
 * Hostile input: the work is linear in the text (each line is read a
 * bounded number of times); at most TBLFMT_MAX_TABLES tables are kept,
 * the rest ignored.
 */
#ifndef SCHED_BOT_TBLFMT_H
#define SCHED_BOT_TBLFMT_H

#include <stddef.h>
#include <stdint.h>

struct json;
struct mail;

#define TBLFMT_LINE_MAX 512
#define TBLFMT_MAX_TABLES 4096

/* In the order of `compare -f`'s list; tblfmt_name() gives its name. */
enum tblfmt_kind {
	TBLFMT_INTEL,
	TBLFMT_AMD,
	TBLFMT_LKP,
	TBLFMT_MMTESTS,
	TBLFMT_MATRIX,
	TBLFMT_SIMPLE,
	TBLFMT_NR
};

/* A message that holds at least one table. */
struct tblfmt_msg {
	char *msgid;		/* bare, "" when it had none */
	char *author_name;	/* decoded, "" if none */
	char *author_email;
	char *date;		/* Date: as sent, "" if none */
	long long timestamp;	/* 0 when Date: is missing or bad */
	size_t order;		/* its place among the messages added */
};

struct tblfmt_table {
	enum tblfmt_kind kind;
	size_t msg;		/* index into msgs[] */
	size_t line;		/* 1-based line of its header in the body */
	int depth;		/* quote depth: 0 when written in msg */
	int counted;		/* 0 for a repeat of a table counted elsewhere */
	uint64_t id;		/* hash of header and first data row */
};

struct tblfmt_scan {
	struct tblfmt_msg *msgs;
	size_t nr_msgs, alloc_msgs;
	struct tblfmt_table *tables;
	size_t nr, alloc;
	size_t nr_mails;	/* messages added, with tables or not */
	size_t dropped;		/* tables over TBLFMT_MAX_TABLES */
	/* After tblfmt_finish(): */
	size_t uses[TBLFMT_NR];	/* messages with a counted table of it */
	int pick;		/* enum tblfmt_kind, or -1: no table */
	size_t pick_msg;	/* index into msgs[] of the pick's last use */
};

#define TBLFMT_SCAN_INIT { .pick = -1 }

/* "intel", "amd", "lkp", "mmtests", "matrix", "simple". */
const char *tblfmt_name(enum tblfmt_kind kind);
/* The kind of a format name, -1 for others ("plot", "auto", ...). */
int tblfmt_from_name(const char *name);

/*
 * Add one parsed message (mail.h) to the scan; strings are copied.
 * Then tblfmt_finish() counts and picks; add nothing after it.
 */
void tblfmt_add(struct tblfmt_scan *s, const struct mail *m);
void tblfmt_finish(struct tblfmt_scan *s);
/* Split an mbox (mbox.h), parse and add every message, finish. */
void tblfmt_scan_mbox(const char *text, size_t len, struct tblfmt_scan *s);
/* The same for a file (a thread.mbox); -1 with an error printed. */
int tblfmt_scan_file(const char *path, struct tblfmt_scan *s);
void tblfmt_release(struct tblfmt_scan *s);

/*
 * The format to render in: want itself unless it is "auto" (or NULL or
 * ""); for "auto" the scan's pick, else fallback (also when s is NULL:
 * no thread).  *note (when note is
 * not NULL) gets one line for stderr saying where the format came from;
 * the caller frees it.  The result is want, fallback or a static name.
 */
const char *tblfmt_resolve(const char *want, const char *fallback,
			   const struct tblfmt_scan *s, char **note);

/*
 * `series --json`'s "formats" array: for each message with counted
 * tables, in thread order, {"format", "msgid", "author": {"name",
 * "email"}, "date", "tables", "quoted", "chosen"}; "quoted" when its
 * tables were only found quoted, "chosen" on the pick.
 */
void tblfmt_json(struct json *j, const struct tblfmt_scan *s);

#endif
