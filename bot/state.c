// SPDX-License-Identifier: GPL-2.0
/*
 * state.c - SQLite state of the bot; see state.h for the exactly-once
 * rule.  Every write is one statement or one explicit transaction, so
 * a kill -9 leaves the database at a statement boundary (SQLite's
 * journal does the rest).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "state.h"
#include "util.h"

struct state {
	sqlite3 *db;
	char *path;		/* the database file, for a full disk */
};

static const char schema[] =
"CREATE TABLE IF NOT EXISTS series (\n"
"  id INTEGER PRIMARY KEY,\n"
"  msgid TEXT NOT NULL, version INTEGER NOT NULL,\n"
"  base TEXT NOT NULL DEFAULT '', workloads TEXT NOT NULL DEFAULT '',\n"
"  subject TEXT, seen_at INTEGER,\n"
"  UNIQUE (msgid, version, base, workloads));"
/* Lineage: a family per series, a row per version (cover or patch
 * 1), the normalised subjects it is known by, the patch-ids a job
 * tested (lineage.h).
 */
"CREATE TABLE IF NOT EXISTS families (\n"
"  id INTEGER PRIMARY KEY, change_id TEXT UNIQUE, created_at INTEGER);"
"CREATE TABLE IF NOT EXISTS versions (\n"
"  msgid TEXT PRIMARY KEY, family INTEGER, version INTEGER NOT NULL,\n"
"  change_id TEXT, author TEXT NOT NULL, subject TEXT, why TEXT,\n"
"  seen_at INTEGER);"
"CREATE TABLE IF NOT EXISTS version_keys (\n"
"  msgid TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL,\n"
"  PRIMARY KEY (msgid, kind, key));"
"CREATE INDEX IF NOT EXISTS version_keys_key ON version_keys (key);"
"CREATE TABLE IF NOT EXISTS job_versions (\n"
"  job_id INTEGER PRIMARY KEY, msgid TEXT NOT NULL);"
"CREATE INDEX IF NOT EXISTS job_versions_msgid ON job_versions (msgid);"
"CREATE TABLE IF NOT EXISTS job_patches (\n"
"  job_id INTEGER PRIMARY KEY, msgid TEXT, base TEXT NOT NULL,\n"
"  target TEXT NOT NULL, workloads TEXT NOT NULL DEFAULT '',\n"
"  patch_ids TEXT NOT NULL, recorded_at INTEGER);"
"CREATE INDEX IF NOT EXISTS job_patches_ids ON job_patches (patch_ids);"
"CREATE TABLE IF NOT EXISTS jobs (\n"
"  id INTEGER PRIMARY KEY, series_id INTEGER,\n"
"  msgid TEXT NOT NULL, workloads TEXT NOT NULL DEFAULT '',\n"
"  runs INTEGER NOT NULL DEFAULT 0, requested_by TEXT,\n"
"  command_msgid TEXT, stage TEXT NOT NULL DEFAULT 'queued',\n"
"  outcome TEXT, job_dir TEXT, created_at INTEGER, updated_at INTEGER,\n"
"  attempts INTEGER NOT NULL DEFAULT 0);"
"CREATE TABLE IF NOT EXISTS mails (\n"
"  message_id TEXT PRIMARY KEY, job_id INTEGER, thread TEXT,\n"
"  path TEXT, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,\n"
"  last_error TEXT, created_at INTEGER, sent_at INTEGER,\n"
"  sending_at INTEGER);"
"CREATE TABLE IF NOT EXISTS commands (\n"
"  msgid TEXT PRIMARY KEY, sender TEXT, outcome TEXT, seen_at INTEGER);"
"CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);"
/* Added later: CREATE ... IF NOT EXISTS is the migration of old files. */
"CREATE TABLE IF NOT EXISTS quarantine (\n"
"  msgid TEXT PRIMARY KEY, reason TEXT NOT NULL, size INTEGER,\n"
"  seen_at INTEGER);"
/* Mails of a poll already handled, by query kind: a poll killed after
 * mail K starts again at K+1 (rows older than the poll window go).
 */
"CREATE TABLE IF NOT EXISTS polled (\n"
"  kind TEXT NOT NULL, msgid TEXT NOT NULL, seen_at INTEGER,\n"
"  PRIMARY KEY (kind, msgid));"
/* The DKIM signature (b=) of each authenticated command: a signature
 * counts once, whatever Message-ID the copy that carries it shows.
 */
"CREATE TABLE IF NOT EXISTS command_sigs (\n"
"  sig TEXT PRIMARY KEY, msgid TEXT NOT NULL, seen_at INTEGER);"
/* Reports held for a moderator (moderation.h): the public mail kept
 * whole until it is released, judged invalid or expires.
 */
"CREATE TABLE IF NOT EXISTS moderation (\n"
"  public_msgid TEXT PRIMARY KEY, hold_msgid TEXT NOT NULL UNIQUE,\n"
"  job_id INTEGER, thread TEXT, target TEXT, workloads TEXT,\n"
"  outcome TEXT, mail TEXT NOT NULL, status TEXT NOT NULL,\n"
"  reason TEXT, decided_by TEXT, created_at INTEGER, decided_at INTEGER);"
/* A tested job's patches found in a named tree (merged.h), once per
 * (job, branch), with its recheck job queued in the same transaction.
 */
"CREATE TABLE IF NOT EXISTS merges (\n"
"  job_id INTEGER NOT NULL, tree TEXT NOT NULL, commit_id TEXT NOT NULL,\n"
"  parent TEXT NOT NULL, target TEXT, workloads TEXT, report TEXT,\n"
"  recheck_job INTEGER, recorded_at INTEGER,\n"
"  PRIMARY KEY (job_id, tree));"
"CREATE INDEX IF NOT EXISTS merges_recheck ON merges (recheck_job);";

void state_crash_point(const char *point)
{
	const char *at = getenv("SCHED_BOT_CRASH_AT");

	if (at && !strcmp(at, point)) {
		fprintf(stderr, "sched-bot: crash point '%s' reached\n", point);
		_exit(137);
	}
}

static struct state_opts opts;

void state_configure(const struct state_opts *o)
{
	opts = *o;
}

char *state_default_path(void)
{
	const char *p = opts.db;

	if (p && *p)
		return xstrdup(p);
	return data_path("state.db");
}

/*
 * A write the file system had no room for: SQLITE_FULL, or an I/O error
 * whose errno is ENOSPC (SQLite growing the -wal or -shm file, or
 * opening the database on a full disk).  SQLite rolled the transaction
 * back, so nothing of it is recorded: a mail whose intent this was is
 * not sent (jobsend.c records the intent first).  The full disk is
 * noted, so that cron and test stop as on any full disk (exit 6).
 */
static int db_full(struct state *st)
{
	int err = sqlite3_system_errno(st->db);

	return sqlite3_errcode(st->db) == SQLITE_FULL || err == ENOSPC ||
	       err == EDQUOT;
}

static int db_error(struct state *st, const char *what)
{
	if (st->path && db_full(st)) {
		disk_full_note(st->path, ENOSPC);
		return error("state database: %s: the file system of %s is full (%s); nothing of this change is recorded: 'sched-bot gc' or an operator frees space, then run again",
			     what, st->path,
			     sqlite3_errmsg(st->db));
	}
	return error("state database: %s: %s", what, sqlite3_errmsg(st->db));
}

/*
 * Schema changes after the first release, in order; user_version counts
 * those applied.  Each runs once, in a transaction with its version.
 */
static const char *const migrations[] = {
	/* 1: recipients per mail, for the rate caps that count them */
	"ALTER TABLE mails ADD COLUMN recipients INTEGER NOT NULL DEFAULT 1;",
	/* 2: where each job's reply went and why (mailpolicy.h), for status */
	"ALTER TABLE jobs ADD COLUMN mail TEXT;"
	"ALTER TABLE jobs ADD COLUMN mail_why TEXT;",
	/*
	 * 3: who may post a later version of each (lineage.h): its author
	 * and the Signed-off-by and Co-developed-by of its own patches
	 */
	"ALTER TABLE versions ADD COLUMN people TEXT;",
	/*
	 * 4: a polled or quarantined mail is known by its Message-ID and
	 * its digest (mbox_digest()): a copy that shows the Message-ID
	 * of another mail neither stands for it nor hides it
	 */
	"CREATE TABLE quarantine_4 (msgid TEXT NOT NULL,\n"
	"  digest TEXT NOT NULL DEFAULT '', reason TEXT NOT NULL,\n"
	"  size INTEGER, seen_at INTEGER, PRIMARY KEY (msgid, digest));"
	"INSERT INTO quarantine_4 (msgid, reason, size, seen_at)\n"
	"  SELECT msgid, reason, size, seen_at FROM quarantine;"
	"DROP TABLE quarantine;"
	"ALTER TABLE quarantine_4 RENAME TO quarantine;"
	"CREATE TABLE polled_4 (kind TEXT NOT NULL, msgid TEXT NOT NULL,\n"
	"  digest TEXT NOT NULL DEFAULT '', seen_at INTEGER,\n"
	"  PRIMARY KEY (kind, msgid, digest));"
	"INSERT INTO polled_4 (kind, msgid, seen_at)\n"
	"  SELECT kind, msgid, seen_at FROM polled;"
	"DROP TABLE polled;"
	"ALTER TABLE polled_4 RENAME TO polled;",
};

static int user_version(struct state *st)
{
	sqlite3_stmt *stmt;
	int version = -1;

	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &stmt,
			       NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		version = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	return version;
}

/* Another instance may migrate at the same time: read inside the lock. */
static int migrate(struct state *st)
{
	for (;;) {
		int version, rc;
		char *set;

		if (sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL))
			return db_error(st, "migration");
		version = user_version(st);
		if (version < 0)
			goto fail;
		if ((size_t)version >= ARRAY_SIZE(migrations))
			break;
		set = xasprintf("PRAGMA user_version = %d;", version + 1);
		rc = sqlite3_exec(st->db, migrations[version], NULL, NULL,
				  NULL) ||
		     sqlite3_exec(st->db, set, NULL, NULL, NULL) ||
		     sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
		free(set);
		if (rc)
			goto fail;
	}
	sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
	return 0;
fail:
	db_error(st, "migration");
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

struct state *state_open(const char *path)
{
	struct state *st = xcalloc(1, sizeof(*st));
	char *p = path ? xstrdup(path) : state_default_path();

	mkdir_parent(p, 0700);
	if (sqlite3_open(p, &st->db) != SQLITE_OK) {
		error("cannot open state database %s: %s", p,
		      st->db ? sqlite3_errmsg(st->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(st->db, 10000);
	st->path = p;
	if (sqlite3_exec(st->db, "PRAGMA journal_mode=WAL;"
			 "PRAGMA synchronous=FULL;", NULL, NULL, NULL) ||
	    sqlite3_exec(st->db, schema, NULL, NULL, NULL)) {
		db_error(st, p);
		goto fail;
	}
	if (migrate(st) < 0)
		goto fail;
	return st;
fail:
	free(p);
	sqlite3_close(st->db);
	free(st);
	return NULL;
}

void state_close(struct state *st)
{
	if (!st)
		return;
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

int state_lock(const char *db_path)
{
	char *lock = xasprintf("%s.lock", db_path);
	char *slash = strrchr(lock, '/');
	int fd;

	if (slash && slash != lock) {
		*slash = '\0';
		mkdir_p(lock, 0700);
		*slash = '/';
	}
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		error("cannot open lock %s: %s", lock, strerror(errno));
		free(lock);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		info("another sched-bot holds %s; nothing to do", lock);
		close(fd);
		free(lock);
		return -1;
	}
	free(lock);
	return fd;
}

/* Prepare, bind text/int arguments by a tiny format ("tti"), step once. */
static sqlite3_stmt *prepare(struct state *st, const char *sql,
			     const char *fmt, ...)
{
	sqlite3_stmt *stmt;
	va_list ap;
	int i;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		db_error(st, "prepare");
		return NULL;
	}
	va_start(ap, fmt);
	for (i = 0; fmt[i]; i++) {
		if (fmt[i] == 't') {
			const char *s = va_arg(ap, const char *);

			if (s)
				sqlite3_bind_text(stmt, i + 1, s, -1,
						  SQLITE_TRANSIENT);
			else
				sqlite3_bind_null(stmt, i + 1);
		} else {
			long long v = va_arg(ap, long long);

			sqlite3_bind_int64(stmt, i + 1, v);
		}
	}
	va_end(ap);
	return stmt;
}

static int exec_stmt(struct state *st, sqlite3_stmt *stmt)
{
	int rc;

	if (!stmt)
		return -1;
	rc = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_error(st, "write");
	return 0;
}

/* 1 when the query has a row, 0 when not, -1 when it failed. */
static int has_row(sqlite3_stmt *stmt)
{
	int found;

	if (!stmt)
		return -1;
	found = sqlite3_step(stmt) == SQLITE_ROW;
	sqlite3_finalize(stmt);
	return found;
}

static char *col_text(sqlite3_stmt *stmt, int i)
{
	const unsigned char *s = sqlite3_column_text(stmt, i);

	return s ? xstrdup((const char *)s) : NULL;
}

static long long now(void)
{
	return (long long)time(NULL);
}

int state_series_add(struct state *st, const char *msgid, int version,
		     const char *base, const char *workloads,
		     const char *subject, long long *job_id)
{
	sqlite3_stmt *stmt;
	long long series_id;

	if (sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL))
		return db_error(st, "begin");
	stmt = prepare(st, "INSERT OR IGNORE INTO series (msgid, version,\n"
		       "base, workloads, subject, seen_at)\n"
		       "VALUES (?, ?, ?, ?, ?, ?)", "tittti", msgid,
		       (long long)version, base ? base : "",
		       workloads ? workloads : "", subject, now());
	if (exec_stmt(st, stmt) < 0)
		goto fail;
	if (!sqlite3_changes(st->db)) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return 1;
	}
	series_id = sqlite3_last_insert_rowid(st->db);
	stmt = prepare(st, "INSERT INTO jobs (series_id, msgid, workloads,\n"
		       "created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
		       "ittii", series_id, msgid, workloads ? workloads : "",
		       now(), now());
	if (exec_stmt(st, stmt) < 0)
		goto fail;
	if (job_id)
		*job_id = sqlite3_last_insert_rowid(st->db);
	if (sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL))
		goto fail;
	return 0;
fail:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return db_error(st, "series");
}

int state_job_add(struct state *st, const char *msgid, const char *workloads,
		  int runs, const char *requested_by,
		  const char *command_msgid, long long *job_id)
{
	sqlite3_stmt *stmt = prepare(st, "INSERT INTO jobs (msgid, workloads,\n"
			"runs, requested_by, command_msgid, created_at,\n"
			"updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)", "ttittii",
			msgid, workloads ? workloads : "", (long long)runs,
			requested_by, command_msgid, now(), now());

	if (exec_stmt(st, stmt) < 0)
		return -1;
	if (job_id)
		*job_id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

#define JOB_COLS "id, msgid, workloads, runs, requested_by, command_msgid, " \
		 "stage, outcome, job_dir"

static void fill_job(sqlite3_stmt *stmt, struct state_job *job)
{
	job->id = sqlite3_column_int64(stmt, 0);
	job->msgid = col_text(stmt, 1);
	job->workloads = col_text(stmt, 2);
	job->runs = sqlite3_column_int(stmt, 3);
	job->requested_by = col_text(stmt, 4);
	job->command_msgid = col_text(stmt, 5);
	job->stage = col_text(stmt, 6);
	job->outcome = col_text(stmt, 7);
	job->job_dir = col_text(stmt, 8);
}

static int query_job(struct state *st, sqlite3_stmt *stmt,
		     struct state_job *job)
{
	int rc;

	memset(job, 0, sizeof(*job));
	if (!stmt)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		fill_job(stmt, job);
	sqlite3_finalize(stmt);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return db_error(st, "read job");
}

int state_job_next(struct state *st, struct state_job *job,
		   long long after_id)
{
	return query_job(st, prepare(st, "SELECT " JOB_COLS " FROM jobs\n"
				     "WHERE outcome IS NULL AND id > ?\n"
				     "ORDER BY id LIMIT 1", "i", after_id),
			 job);
}

int state_job_get(struct state *st, long long id, struct state_job *job)
{
	return query_job(st, prepare(st, "SELECT " JOB_COLS " FROM jobs\n"
				     "WHERE id = ?", "i", id), job);
}

int state_job_find(struct state *st, const char *msgid, struct state_job *job)
{
	/* a recheck after merge tested the tree's commits, not the mail */
	return query_job(st, prepare(st, "SELECT " JOB_COLS " FROM jobs\n"
				     "WHERE msgid = ? AND id NOT IN (SELECT\n"
				     "recheck_job FROM merges WHERE recheck_job\n"
				     "IS NOT NULL) ORDER BY outcome IS NULL,\n"
				     "id DESC LIMIT 1", "t", msgid), job);
}

int state_job_update(struct state *st, long long id, const char *stage,
		     const char *outcome, const char *job_dir)
{
	return exec_stmt(st, prepare(st, "UPDATE jobs SET\n"
			 "stage = COALESCE(?, stage), outcome = ?,\n"
			 "job_dir = COALESCE(?, job_dir), updated_at = ?\n"
			 "WHERE id = ?", "tttii", stage, outcome, job_dir,
			 now(), id));
}

int state_job_mail_set(struct state *st, long long id, const char *mail,
		       const char *why)
{
	return exec_stmt(st, prepare(st, "UPDATE jobs SET mail = ?, mail_why = ?, updated_at = ? WHERE id = ?",
				     "ttii", mail, why, now(), id));
}

int state_jobs_kept(struct state *st, long long since,
		    int (*fn)(long long id, const char *msgid,
			      const char *mail, const char *why, void *data),
		    void *data)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT id, msgid, mail, COALESCE(mail_why, '') FROM jobs WHERE mail IS NOT NULL AND mail != 'list' AND updated_at >= ? ORDER BY id",
				     "i", since);
	int rc, ret = 0;

	if (!stmt)
		return -1;
	while (!ret && (rc = sqlite3_step(stmt)) == SQLITE_ROW)
		ret = fn(sqlite3_column_int64(stmt, 0),
			 (const char *)sqlite3_column_text(stmt, 1),
			 (const char *)sqlite3_column_text(stmt, 2),
			 (const char *)sqlite3_column_text(stmt, 3), data);
	sqlite3_finalize(stmt);
	return ret;
}

void state_job_release(struct state_job *job)
{
	free(job->msgid);
	free(job->workloads);
	free(job->requested_by);
	free(job->command_msgid);
	free(job->stage);
	free(job->outcome);
	free(job->job_dir);
	memset(job, 0, sizeof(*job));
}

/* ---- lineage (lineage.h decides; this only stores) ---- */

#define VERSION_COLS "msgid, family, version, change_id, author, subject, " \
		     "why, seen_at, people"

static void fill_version(sqlite3_stmt *stmt, struct state_version *v)
{
	v->msgid = col_text(stmt, 0);
	v->family = sqlite3_column_int64(stmt, 1);
	v->version = sqlite3_column_int(stmt, 2);
	v->change_id = col_text(stmt, 3);
	v->author = col_text(stmt, 4);
	v->subject = col_text(stmt, 5);
	v->why = col_text(stmt, 6);
	v->seen_at = sqlite3_column_int64(stmt, 7);
	v->people = col_text(stmt, 8);
}

int state_version_get(struct state *st, const char *msgid,
		      struct state_version *v)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT " VERSION_COLS " FROM\n"
				     "versions WHERE msgid = ?", "t", msgid);
	int rc;

	memset(v, 0, sizeof(*v));
	if (!stmt)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		fill_version(stmt, v);
	sqlite3_finalize(stmt);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : db_error(st, "read version");
}

void state_version_release(struct state_version *v)
{
	free(v->msgid);
	free(v->change_id);
	free(v->author);
	free(v->subject);
	free(v->why);
	free(v->people);
	memset(v, 0, sizeof(*v));
}

/* The first column of each row, as ids, at most max; the count or -1. */
static int collect_ids(struct state *st, sqlite3_stmt *stmt,
		       long long *ids, int max)
{
	int n = 0, rc;

	if (!stmt)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n < max)
			ids[n] = sqlite3_column_int64(stmt, 0);
		n++;
	}
	sqlite3_finalize(stmt);
	return rc == SQLITE_DONE ? n : db_error(st, "read ids");
}

long long state_family_of_change_id(struct state *st, const char *change_id)
{
	long long id = 0;
	int n = collect_ids(st, prepare(st, "SELECT id FROM families WHERE\n"
					"change_id = ?", "t", change_id),
			    &id, 1);

	return n < 0 ? -1 : n ? id : 0;
}

int state_families_by_key(struct state *st, const char *author,
			  const char *kind, const char *key, long long *ids,
			  int max)
{
	return collect_ids(st, prepare(st, "SELECT DISTINCT v.family FROM\n"
				       "versions v JOIN version_keys k ON\n"
				       "k.msgid = v.msgid WHERE v.author = ?\n"
				       "AND k.kind = ? AND k.key = ? AND\n"
				       "v.family IS NOT NULL ORDER BY\n"
				       "v.family", "ttt", author, kind, key),
			   ids, max);
}

long long state_family_new(struct state *st, const char *change_id)
{
	if (exec_stmt(st, prepare(st, "INSERT INTO families (change_id,\n"
				  "created_at) VALUES (?, ?)", "ti",
				  change_id, now())) < 0)
		return -1;
	return sqlite3_last_insert_rowid(st->db);
}

int state_family_set_change_id(struct state *st, long long family,
			       const char *change_id)
{
	return exec_stmt(st, prepare(st, "UPDATE families SET change_id = ?\n"
				     "WHERE id = ? AND change_id IS NULL",
				     "ti", change_id, family));
}

int state_version_add(struct state *st, const struct state_version *v)
{
	sqlite3_stmt *stmt = prepare(st, "INSERT OR IGNORE INTO versions ("
				     VERSION_COLS ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
				     "tiittttit", v->msgid, v->family,
				     (long long)v->version, v->change_id,
				     v->author, v->subject, v->why, now(),
				     v->people);

	/* family 0 is none: NULL in the table */
	if (stmt && !v->family)
		sqlite3_bind_null(stmt, 2);
	return exec_stmt(st, stmt);
}

int state_version_key_add(struct state *st, const char *msgid,
			  const char *kind, const char *key)
{
	return exec_stmt(st, prepare(st, "INSERT OR IGNORE INTO version_keys\n"
				     "(msgid, kind, key) VALUES (?, ?, ?)",
				     "ttt", msgid, kind, key));
}

int state_family_versions(struct state *st, long long family,
			  int (*fn)(const struct state_version *v,
				    void *data), void *data)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT " VERSION_COLS " FROM\n"
				     "versions WHERE family = ? ORDER BY\n"
				     "version, seen_at, msgid", "i", family);
	int rc, ret = 0;

	if (!stmt)
		return -1;
	while (!ret && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct state_version v;

		fill_version(stmt, &v);
		ret = fn(&v, data);
		state_version_release(&v);
	}
	sqlite3_finalize(stmt);
	if (!ret && rc != SQLITE_DONE)
		return db_error(st, "read versions");
	return ret;
}

int state_job_version_set(struct state *st, long long job_id,
			  const char *msgid)
{
	return exec_stmt(st, prepare(st, "INSERT OR REPLACE INTO job_versions\n"
				     "(job_id, msgid) VALUES (?, ?)", "it",
				     job_id, msgid));
}

int state_version_jobs(struct state *st, const char *msgid,
		       int (*fn)(const struct state_job *job, void *data),
		       void *data)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT " JOB_COLS " FROM jobs\n"
				     "WHERE id IN (SELECT job_id FROM\n"
				     "job_versions WHERE msgid = ?) OR\n"
				     "msgid = ? ORDER BY id", "tt", msgid,
				     msgid);
	int rc, ret = 0;

	if (!stmt)
		return -1;
	while (!ret && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct state_job job;

		memset(&job, 0, sizeof(job));
		fill_job(stmt, &job);
		ret = fn(&job, data);
		state_job_release(&job);
	}
	sqlite3_finalize(stmt);
	if (!ret && rc != SQLITE_DONE)
		return db_error(st, "read jobs");
	return ret;
}

int state_job_patches_set(struct state *st, long long job_id,
			  const struct state_patches *p)
{
	return exec_stmt(st, prepare(st, "INSERT OR REPLACE INTO job_patches\n"
				     "(job_id, msgid, base, target, workloads,\n"
				     "patch_ids, recorded_at) VALUES (?, ?,\n"
				     "?, ?, ?, ?, ?)", "ittttti", job_id,
				     p->msgid, p->base, p->target,
				     p->workloads ? p->workloads : "",
				     p->patch_ids, now()));
}

long long state_job_same_patches(struct state *st, long long job_id,
				 const struct state_patches *p)
{
	long long id = 0;
	int n = collect_ids(st, prepare(st, "SELECT p.job_id FROM job_patches\n"
					"p JOIN jobs j ON j.id = p.job_id\n"
					"WHERE p.patch_ids = ? AND p.base = ?\n"
					"AND p.target = ? AND p.workloads = ?\n"
					"AND p.job_id != ? AND j.outcome IN\n"
					"('tested', 'regression') ORDER BY\n"
					"p.job_id DESC LIMIT 1", "tttti",
					p->patch_ids, p->base, p->target,
					p->workloads ? p->workloads : "",
					job_id), &id, 1);

	return n < 0 ? -1 : n ? id : 0;
}

int state_measured_patches(struct state *st,
			   int (*fn)(const struct state_patches *p,
				     long long job_id, void *data),
			   void *data)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT p.job_id, p.msgid, p.base,\n"
				     "p.target, p.workloads, p.patch_ids FROM\n"
				     "job_patches p JOIN jobs j ON j.id =\n"
				     "p.job_id WHERE j.outcome IN ('tested',\n"
				     "'regression') ORDER BY p.job_id", "");
	int rc, ret = 0;

	if (!stmt)
		return -1;
	while (!ret && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct state_patches p = {
			.msgid = (const char *)sqlite3_column_text(stmt, 1),
			.base = (const char *)sqlite3_column_text(stmt, 2),
			.target = (const char *)sqlite3_column_text(stmt, 3),
			.workloads = (const char *)sqlite3_column_text(stmt, 4),
			.patch_ids = (const char *)sqlite3_column_text(stmt, 5),
		};

		if (p.patch_ids)
			ret = fn(&p, sqlite3_column_int64(stmt, 0), data);
	}
	sqlite3_finalize(stmt);
	if (!ret && rc != SQLITE_DONE)
		return db_error(st, "read patches");
	return ret;
}

int state_merge_add(struct state *st, struct state_merge *m,
		    const char *recheck_msgid)
{
	if (state_begin(st) < 0)
		return -1;
	if (exec_stmt(st, prepare(st, "INSERT OR IGNORE INTO merges (job_id,\n"
				  "tree, commit_id, parent, target, workloads,\n"
				  "report, recorded_at) VALUES (?, ?, ?, ?, ?,\n"
				  "?, ?, ?)", "itttttti",
				  m->job_id, m->tree, m->commit, m->parent,
				  m->target, m->workloads, m->report,
				  now())) < 0)
		goto fail;
	if (!sqlite3_changes(st->db)) {
		state_rollback(st);
		return 0;
	}
	m->recheck_job = 0;
	if (recheck_msgid &&
	    (state_job_add(st, recheck_msgid, m->workloads, 0, NULL, NULL,
			   &m->recheck_job) < 0 ||
	     exec_stmt(st, prepare(st, "UPDATE merges SET recheck_job = ?\n"
				   "WHERE job_id = ? AND tree = ?", "iit",
				   m->recheck_job, m->job_id, m->tree)) < 0))
		goto fail;
	if (state_commit(st) < 0)
		return -1;
	return 1;
fail:
	state_rollback(st);
	return -1;
}

#define MERGE_COLS "job_id, tree, commit_id, parent, target, workloads, " \
		   "report, recheck_job, recorded_at"

static void fill_merge(sqlite3_stmt *stmt, struct state_merge *m)
{
	m->job_id = sqlite3_column_int64(stmt, 0);
	m->tree = col_text(stmt, 1);
	m->commit = col_text(stmt, 2);
	m->parent = col_text(stmt, 3);
	m->target = col_text(stmt, 4);
	m->workloads = col_text(stmt, 5);
	m->report = col_text(stmt, 6);
	m->recheck_job = sqlite3_column_int64(stmt, 7);
	m->recorded_at = sqlite3_column_int64(stmt, 8);
}

void state_merge_release(struct state_merge *m)
{
	free(m->tree);
	free(m->commit);
	free(m->parent);
	free(m->target);
	free(m->workloads);
	free(m->report);
	memset(m, 0, sizeof(*m));
}

int state_merge_of_recheck(struct state *st, long long job_id,
			   struct state_merge *m)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT " MERGE_COLS " FROM merges\n"
				     "WHERE recheck_job = ?", "i", job_id);
	int rc;

	memset(m, 0, sizeof(*m));
	if (!stmt)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		fill_merge(stmt, m);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_error(st, "read merges");
	return rc == SQLITE_ROW;
}

int state_job_merges(struct state *st, long long job_id,
		     int (*fn)(const struct state_merge *m, void *data),
		     void *data)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT " MERGE_COLS " FROM merges\n"
				     "WHERE job_id = ? ORDER BY rowid", "i",
				     job_id);
	int rc, ret = 0;

	if (!stmt)
		return -1;
	while (!ret && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct state_merge m;

		fill_merge(stmt, &m);
		ret = fn(&m, data);
		state_merge_release(&m);
	}
	sqlite3_finalize(stmt);
	if (!ret && rc != SQLITE_DONE)
		return db_error(st, "read merges");
	return ret;
}

int state_mail_intent(struct state *st, const char *message_id,
		      long long job_id, const char *thread, const char *path)
{
	return exec_stmt(st, prepare(st, "INSERT OR IGNORE INTO mails\n"
			 "(message_id, job_id, thread, path, state,\n"
			 "created_at) VALUES (?, ?, ?, ?, 'intent', ?)",
			 "titti", message_id, job_id, thread, path, now()));
}

int state_mail_sent(struct state *st, const char *message_id)
{
	return exec_stmt(st, prepare(st, "UPDATE mails SET state = 'sent',\n"
			 "sent_at = ?, attempts = attempts + 1\n"
			 "WHERE message_id = ?", "it", now(), message_id));
}

int state_mail_failed(struct state *st, const char *message_id,
		      const char *why)
{
	return exec_stmt(st, prepare(st, "UPDATE mails SET\n"
			 "attempts = attempts + 1, last_error = ?,\n"
			 "sending_at = NULL\n"
			 "WHERE message_id = ?", "tt", why, message_id));
}

enum mail_status state_mail_status(struct state *st, const char *message_id)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT state FROM mails\n"
				     "WHERE message_id = ?", "t", message_id);
	enum mail_status ret = MAIL_UNKNOWN;

	if (!stmt)
		return MAIL_UNKNOWN;
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(stmt, 0);

		ret = s && !strcmp(s, "sent") ? MAIL_SENT : MAIL_INTENT;
	}
	sqlite3_finalize(stmt);
	return ret;
}

int state_mails_pending(struct state *st, struct state_mail **mails,
			size_t *nr)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT message_id, job_id, thread,\n"
				     "path, attempts, sending_at, created_at\n"
				     "FROM mails\n"
				     "WHERE state = 'intent'\n"
				     "ORDER BY created_at, rowid", "");
	size_t alloc = 0;
	int rc;

	*mails = NULL;
	*nr = 0;
	if (!stmt)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct state_mail *m;

		ALLOC_GROW(*mails, *nr, alloc);
		m = &(*mails)[(*nr)++];
		m->message_id = col_text(stmt, 0);
		m->job_id = sqlite3_column_int64(stmt, 1);
		m->thread = col_text(stmt, 2);
		m->path = col_text(stmt, 3);
		m->attempts = sqlite3_column_int(stmt, 4);
		m->uncertain = sqlite3_column_type(stmt, 5) != SQLITE_NULL;
		m->created_at = sqlite3_column_int64(stmt, 6);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return db_error(st, "read mails");
	return 0;
}

void state_mails_release(struct state_mail *mails, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(mails[i].message_id);
		free(mails[i].thread);
		free(mails[i].path);
	}
	free(mails);
}

long state_mails_sent_since(struct state *st, long long since,
			    const char *thread)
{
	sqlite3_stmt *stmt;
	long n = -1;

	if (thread)
		stmt = prepare(st, "SELECT COUNT(*) FROM mails WHERE\n"
			       "state = 'sent' AND sent_at >= ? AND thread = ?",
			       "it", since, thread);
	else
		stmt = prepare(st, "SELECT COUNT(*) FROM mails WHERE\n"
			       "state = 'sent' AND sent_at >= ?", "i", since);
	if (!stmt)
		return -1;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		n = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return n;
}

int state_command_seen(struct state *st, const char *msgid)
{
	return has_row(prepare(st, "SELECT 1 FROM commands WHERE msgid = ?",
			       "t", msgid));
}

int state_command_add(struct state *st, const char *msgid,
		      const char *sender, const char *outcome,
		      const char *sig)
{
	/* both rows or neither, in the caller's transaction or our own */
	int own = sig && sqlite3_get_autocommit(st->db);

	if (own && state_begin(st) < 0)
		return -1;
	if (exec_stmt(st, prepare(st, "INSERT OR IGNORE INTO commands\n"
			  "(msgid, sender, outcome, seen_at)\n"
			  "VALUES (?, ?, ?, ?)", "ttti", msgid, sender,
			  outcome, now())) < 0)
		goto fail;
	if (sig && exec_stmt(st, prepare(st, "INSERT OR IGNORE INTO\n"
				 "command_sigs (sig, msgid, seen_at)\n"
				 "VALUES (?, ?, ?)", "tti", sig, msgid,
				 now())) < 0)
		goto fail;
	if (own && state_commit(st) < 0)
		return -1;
	return 0;
fail:
	if (own)
		state_rollback(st);
	return -1;
}

int state_command_sig_msgid(struct state *st, const char *sig, char **msgid)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT msgid FROM command_sigs\n"
				     "WHERE sig = ?", "t", sig);
	int rc, ret = -1;

	*msgid = NULL;
	if (!stmt)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		*msgid = col_text(stmt, 0);
		ret = *msgid ? 1 : -1;
	} else if (rc == SQLITE_DONE) {
		ret = 0;
	} else {
		db_error(st, "command_sigs");
	}
	sqlite3_finalize(stmt);
	return ret;
}

char *state_meta_get(struct state *st, const char *key)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT value FROM meta\n"
				     "WHERE key = ?", "t", key);
	char *v = NULL;

	if (!stmt)
		return NULL;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		v = col_text(stmt, 0);
	sqlite3_finalize(stmt);
	return v;
}

int state_meta_set(struct state *st, const char *key, const char *value)
{
	return exec_stmt(st, prepare(st, "INSERT OR REPLACE INTO meta\n"
			 "(key, value) VALUES (?, ?)", "tt", key, value));
}

int state_mail_sending(struct state *st, const char *message_id)
{
	return exec_stmt(st, prepare(st, "UPDATE mails SET sending_at = ?\n"
			 "WHERE message_id = ?", "it", now(), message_id));
}

int state_job_attempt(struct state *st, long long id)
{
	sqlite3_stmt *stmt;
	int n = -1;

	if (exec_stmt(st, prepare(st, "UPDATE jobs SET attempts =\n"
			  "attempts + 1 WHERE id = ?", "i", id)) < 0)
		return -1;
	stmt = prepare(st, "SELECT attempts FROM jobs WHERE id = ?", "i", id);
	if (!stmt)
		return -1;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		n = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	return n;
}

int state_job_attempt_undo(struct state *st, long long id)
{
	return exec_stmt(st, prepare(st, "UPDATE jobs SET attempts =\n"
			 "attempts - 1 WHERE id = ? AND attempts > 0", "i", id));
}

static long count(struct state *st, sqlite3_stmt *stmt)
{
	long n = -1;

	if (!stmt)
		return -1;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		n = sqlite3_column_int64(stmt, 0);
	else
		db_error(st, "count");
	sqlite3_finalize(stmt);
	return n;
}

long state_recipients_sent_since(struct state *st, long long since)
{
	return count(st, prepare(st, "SELECT COALESCE(SUM(recipients), 0)\n"
				 "FROM mails WHERE state = 'sent' AND\n"
				 "sent_at >= ?", "i", since));
}

int state_mail_recipients(struct state *st, const char *message_id, int n)
{
	return exec_stmt(st, prepare(st, "UPDATE mails SET recipients = ?\n"
			 "WHERE message_id = ?", "it", (long long)n,
			 message_id));
}

int state_mail_drop(struct state *st, const char *message_id,
		    const char *why)
{
	return exec_stmt(st, prepare(st, "UPDATE mails SET state = 'dropped',\n"
			 "last_error = ? WHERE message_id = ? AND\n"
			 "state = 'intent'", "tt", why, message_id));
}

char *state_mail_thread(struct state *st, const char *message_id)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT COALESCE(thread, '')\n"
				     "FROM mails WHERE message_id = ? AND\n"
				     "state = 'sent'", "t", message_id);
	char *thread = NULL;

	if (!stmt)
		return NULL;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		thread = col_text(stmt, 0);
	sqlite3_finalize(stmt);
	return thread;
}

long state_commands_since(struct state *st, long long since,
			  const char *sender, const char *outcome)
{
	if (sender)
		return count(st, prepare(st, "SELECT COUNT(*) FROM commands\n"
					 "WHERE seen_at >= ? AND sender = ?\n"
					 "AND outcome = ?", "itt", since,
					 sender, outcome));
	return count(st, prepare(st, "SELECT COUNT(*) FROM commands WHERE\n"
				 "seen_at >= ? AND outcome = ?", "it", since,
				 outcome));
}

long state_jobs_requested_since(struct state *st, long long since,
				const char *sender)
{
	if (sender)
		return count(st, prepare(st, "SELECT COUNT(*) FROM jobs WHERE\n"
					 "created_at >= ? AND\n"
					 "requested_by = ?", "it", since,
					 sender));
	return count(st, prepare(st, "SELECT COUNT(*) FROM jobs WHERE\n"
				 "created_at >= ? AND requested_by IS NOT\n"
				 "NULL", "i", since));
}

int state_begin(struct state *st)
{
	if (sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL))
		return db_error(st, "begin");
	return 0;
}

int state_commit(struct state *st)
{
	if (sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL)) {
		db_error(st, "commit");
		state_rollback(st);
		return -1;
	}
	return 0;
}

void state_rollback(struct state *st)
{
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

int state_quarantined(struct state *st, const char *msgid, const char *digest)
{
	return has_row(prepare(st, "SELECT 1 FROM quarantine WHERE msgid = ?\n"
			       "AND digest = ?", "tt", msgid, digest));
}

int state_quarantine_add(struct state *st, const char *msgid,
			 const char *digest, const char *reason,
			 long long size)
{
	int found = state_quarantined(st, msgid, digest);

	if (found)
		return found < 0 ? -1 : 0;
	if (exec_stmt(st, prepare(st, "INSERT OR IGNORE INTO quarantine\n"
			  "(msgid, digest, reason, size, seen_at)\n"
			  "VALUES (?, ?, ?, ?, ?)", "tttii", msgid, digest,
			  reason, size, now())) < 0)
		return -1;
	return 1;
}

int state_polled(struct state *st, const char *kind, const char *msgid,
		 const char *digest)
{
	return has_row(prepare(st, "SELECT 1 FROM polled WHERE kind = ?\n"
			       "AND msgid = ? AND digest = ?", "ttt", kind,
			       msgid, digest));
}

int state_polled_add(struct state *st, const char *kind, const char *msgid,
		     const char *digest)
{
	return exec_stmt(st, prepare(st, "INSERT OR REPLACE INTO polled\n"
				     "(kind, msgid, digest, seen_at)\n"
				     "VALUES (?, ?, ?, ?)", "ttti", kind,
				     msgid, digest, now()));
}

int state_polled_expire(struct state *st, long long before)
{
	return exec_stmt(st, prepare(st, "DELETE FROM polled WHERE\n"
				     "seen_at < ?", "i", before));
}

char *state_mail_state(struct state *st, const char *message_id)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT state FROM mails\n"
				     "WHERE message_id = ?", "t", message_id);
	char *s = NULL;

	if (!stmt)
		return NULL;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		s = col_text(stmt, 0);
	sqlite3_finalize(stmt);
	return s;
}

int state_mail_held(struct state *st, const char *message_id,
		    const char *why)
{
	return exec_stmt(st, prepare(st, "UPDATE mails SET last_error =\n"
			 "'held: ' || ? WHERE message_id = ? AND\n"
			 "state = 'intent'", "tt", why, message_id));
}

int state_mail_stats(struct state *st, struct state_mail_stats *s)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT\n"
		"COALESCE(SUM(state = 'intent'), 0),\n"
		"COALESCE(SUM(state = 'intent' AND last_error LIKE 'held:%'), 0),\n"
		"COALESCE(SUM(state = 'dropped'), 0),\n"
		"MIN(CASE WHEN state = 'intent' THEN created_at END)\n"
		"FROM mails", "");
	int rc;

	memset(s, 0, sizeof(*s));
	if (!stmt)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		s->pending = sqlite3_column_int64(stmt, 0);
		s->held = sqlite3_column_int64(stmt, 1);
		s->dropped = sqlite3_column_int64(stmt, 2);
		s->oldest_pending_at = sqlite3_column_int64(stmt, 3);
	}
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 0 : db_error(st, "mail stats");
}

int state_jobs_by_stage(struct state *st,
			int (*fn)(const char *stage, long n, void *data),
			void *data)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT stage, COUNT(*) FROM jobs\n"
				     "WHERE outcome IS NULL GROUP BY stage\n"
				     "ORDER BY stage", "");
	int rc, ret = 0;

	if (!stmt)
		return -1;
	while (!ret && (rc = sqlite3_step(stmt)) == SQLITE_ROW)
		ret = fn((const char *)sqlite3_column_text(stmt, 0),
			 sqlite3_column_int64(stmt, 1), data);
	sqlite3_finalize(stmt);
	return ret;
}

long state_jobs_finished_since(struct state *st, long long since,
			       int failed)
{
	return count(st, prepare(st, failed ?
		"SELECT COUNT(*) FROM jobs WHERE outcome IS NOT NULL AND\n"
		"outcome NOT IN ('tested', 'regression', 'duplicate') AND\n"
		"updated_at >= ?" :
		"SELECT COUNT(*) FROM jobs WHERE outcome IN ('tested',\n"
		"'regression', 'duplicate') AND updated_at >= ?", "i", since));
}

int state_meta_list(struct state *st, const char *prefix,
		    int (*fn)(const char *key, const char *value, void *data),
		    void *data)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT key, value FROM meta\n"
				     "WHERE substr(key, 1, length(?1)) = ?1\n"
				     "ORDER BY key", "t", prefix);
	int ret = 0;

	if (!stmt)
		return -1;
	while (!ret && sqlite3_step(stmt) == SQLITE_ROW)
		ret = fn((const char *)sqlite3_column_text(stmt, 0),
			 (const char *)sqlite3_column_text(stmt, 1), data);
	sqlite3_finalize(stmt);
	return ret;
}

long state_prune(struct state *st, long long before)
{
	if (exec_stmt(st, prepare(st, "DELETE FROM polled WHERE\n"
				  "seen_at < ?", "i", before)) < 0)
		return -1;
	return sqlite3_changes(st->db);
}

/* ---- reports held for a moderator ---- */

int state_held_add(struct state *st, const struct state_held *h)
{
	return exec_stmt(st, prepare(st, "INSERT OR IGNORE INTO moderation\n"
			 "(public_msgid, hold_msgid, job_id, thread, target,\n"
			 "workloads, outcome, mail, status, created_at)\n"
			 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'held', ?)",
			 "ttittttti", h->public_msgid, h->hold_msgid,
			 h->job_id, h->thread, h->target, h->workloads,
			 h->outcome, h->mail, now()));
}

int state_held_get(struct state *st, const char *msgid, struct state_held *h)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT public_msgid, hold_msgid,\n"
				     "job_id, thread, target, workloads,\n"
				     "outcome, mail, status, reason,\n"
				     "decided_by, created_at FROM moderation\n"
				     "WHERE hold_msgid = ?1 OR\n"
				     "public_msgid = ?1", "t", msgid);
	int rc;

	memset(h, 0, sizeof(*h));
	if (!stmt)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		h->public_msgid = col_text(stmt, 0);
		h->hold_msgid = col_text(stmt, 1);
		h->job_id = sqlite3_column_int64(stmt, 2);
		h->thread = col_text(stmt, 3);
		h->target = col_text(stmt, 4);
		h->workloads = col_text(stmt, 5);
		h->outcome = col_text(stmt, 6);
		h->mail = col_text(stmt, 7);
		h->status = col_text(stmt, 8);
		h->reason = col_text(stmt, 9);
		h->decided_by = col_text(stmt, 10);
		h->created_at = sqlite3_column_int64(stmt, 11);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_error(st, "held report");
	return rc == SQLITE_ROW;
}

void state_held_release(struct state_held *h)
{
	free(h->public_msgid);
	free(h->hold_msgid);
	free(h->thread);
	free(h->target);
	free(h->workloads);
	free(h->outcome);
	free(h->mail);
	free(h->status);
	free(h->reason);
	free(h->decided_by);
	memset(h, 0, sizeof(*h));
}

int state_held_decide(struct state *st, const char *public_msgid,
		      const char *status, const char *reason, const char *by)
{
	if (exec_stmt(st, prepare(st, "UPDATE moderation SET status = ?,\n"
			  "reason = ?, decided_by = ?, decided_at = ?\n"
			  "WHERE public_msgid = ? AND status = 'held'",
			  "tttit", status, reason, by, now(),
			  public_msgid)) < 0)
		return -1;
	return sqlite3_changes(st->db);
}

long state_held_expire(struct state *st, long long before)
{
	if (exec_stmt(st, prepare(st, "UPDATE moderation SET status =\n"
			  "'expired', reason = 'not judged within\n"
			  "bot.holdDays', decided_at = ? WHERE\n"
			  "status = 'held' AND created_at < ?", "ii", now(),
			  before)) < 0)
		return -1;
	return sqlite3_changes(st->db);
}

int state_held_tally(struct state *st,
		     int (*fn)(const char *target, const char *workloads,
			       const char *status, long n, void *data),
		     void *data)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT COALESCE(target, ''),\n"
				     "COALESCE(workloads, ''), status,\n"
				     "COUNT(*) FROM moderation GROUP BY 1,\n"
				     "2, 3 ORDER BY 1, 2, 3", "");
	int rc, ret = 0;

	if (!stmt)
		return -1;
	while (!ret && (rc = sqlite3_step(stmt)) == SQLITE_ROW)
		ret = fn((const char *)sqlite3_column_text(stmt, 0),
			 (const char *)sqlite3_column_text(stmt, 1),
			 (const char *)sqlite3_column_text(stmt, 2),
			 sqlite3_column_int64(stmt, 3), data);
	sqlite3_finalize(stmt);
	return ret;
}
