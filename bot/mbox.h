/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mbox.h - split an mbox (lore serves mboxrd) into raw messages, the way
 * `git mailsplit --mboxrd` does, and drop duplicate Message-IDs the way
 * b4 does (the same mail reaches lore through several lists).
 */
#ifndef SCHED_BOT_MBOX_H
#define SCHED_BOT_MBOX_H

#include <stddef.h>

struct mbox_msg {
	char *data;		/* the message, LF line ends, NUL-terminated */
	size_t len;
	char *msgid;		/* bare Message-ID, or NULL when it has none */
};

struct mbox {
	struct mbox_msg *msgs;
	size_t nr, alloc;
	size_t nr_dups;		/* duplicates dropped */
};

/*
 * Split text into messages.  Text that does not start with a "From "
 * line is one raw message (an .eml).  An mbox whose first separator is
 * lore's "From mboxrd@z ..." is read as mboxrd: every unquoted "From "
 * line separates, and ">From " lines lose one '>'.  Any other mbox is
 * read as mboxo, like git mailsplit: a separator must look like one
 * (is_from_line) and, unlike git, be followed by a header line, so a
 * "From <sha> Mon Sep 17 ..." line pasted into a body followed by prose
 * does not split.  (In mboxrd such a line is quoted and never splits.)
 * Returns the number of messages kept.
 */
size_t mbox_split(const char *text, size_t len, struct mbox *mb);
/*
 * The same, keeping every message: two that show one Message-ID but
 * differ are two mails, of which at most one is what its sender sent
 * (a copy of a signed command, unsigned, can reach lore first).  The
 * mails of cron's polls are read so, each known by its Message-ID and
 * mbox_digest().
 */
size_t mbox_split_each(const char *text, size_t len, struct mbox *mb);
void mbox_release(struct mbox *mb);

/*
 * The SHA-1 of a whole message (as git hashes a blob), in hex: what
 * tells apart two mails of one Message-ID.  Caller frees.
 */
char *mbox_digest(const char *msg, size_t len);

/* git mailsplit's test for a separator line ("From x Day Mon dd hh:mm:ss yyyy"). */
int mbox_is_from_line(const char *line, size_t len);

/*
 * The unfolded value of the first header called name (case-insensitive)
 * in a raw message, or NULL.  Only the header block is searched.
 */
char *mbox_header(const char *msg, size_t len, const char *name);

/*
 * Message-ID to index, for threads of thousands of mails.  Keys are
 * borrowed: they must outlive the map.
 */
struct msgid_map {
	struct msgid_slot {
		const char *id;
		size_t val;
	} *slot;
	size_t cap, nr;
};

void msgid_map_put(struct msgid_map *m, const char *id, size_t val);
/* 1 and *val set when id is there, else 0. */
int msgid_map_get(const struct msgid_map *m, const char *id, size_t *val);
void msgid_map_release(struct msgid_map *m);

/* The bare id inside the first <...> of s (or s trimmed), or NULL. */
char *mbox_bare_msgid(const char *s);

#endif
