/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lava.h - a device of a LAVA lab as a target: sched-bot renders a job
 * definition from templates/lava/, submits it through LAVA's REST API
 * (v0.2), follows the job log and reads the framed records of
 * sched-bench's init off the serial console lines in it.
 *
 *   [target "lava-qemu"]
 *	type = lava
 *	url = http://lava.example.org
 *	tokenFile = ~/.config/sched-bot/lava.token
 *	deviceType = qemu            (the template: templates/lava/qemu.yaml)
 *	device = qemu01              (pin one machine; else LAVA picks)
 *	tags = big-numa              (comma-separated device tags)
 *	jobTemplate = FILE           (instead of templates/lava/<type>.yaml)
 *	artifactDir = /srv/lava-art  (where kernels are put for the worker)
 *	artifactUrl = http://host/art (the same directory over HTTP)
 *	timeout = 1800               (s, queueing included; then cancel)
 *	priority = medium
 *	retries = 2                  (infrastructure failures retried)
 *
 * Without artifactUrl the worker must share this host: file:// URLs.
 * Every boot after the first in one process is pinned to the device the
 * first one ran on (unless device is set), so base and patched kernels
 * of a job meet the same machine.
 */
#ifndef SCHED_BOT_TARGET_LAVA_H
#define SCHED_BOT_TARGET_LAVA_H

#include <stdio.h>

#include "target/console.h"
#include "util.h"

/* What one chunk of a LAVA job log (the YAML list of JSON lines) says. */
struct lava_log {
	struct strbuf console;	/* the target's lines, '\n'-terminated */
	size_t lines;		/* log entries consumed: the next ?start= */
	char *error_type;	/* "Infrastructure", "Job", ... or NULL */
	char *error_msg;	/* LAVA's words for it, or NULL */
	/*
	 * The console kept across every read of the job: at most max bytes
	 * (0: no bound), each line at most CONSOLE_LINE_MAX.  seen counts
	 * what came, kept or not (an entry too long to read counts whole);
	 * past max nothing more is kept and cut is set.
	 */
	size_t max, seen;
	int cut;
	size_t long_entries;	/* entries over LAVA_ENTRY_MAX, not read */
};

/*
 * The longest log entry read: a console line of CONSOLE_LINE_MAX bytes,
 * each written \u00XX, with LAVA's fields around it.
 */
#define LAVA_ENTRY_MAX (6 * CONSOLE_LINE_MAX + 1024)

/*
 * Consume the complete lines of body (a partial last line is left for
 * the next read).  Lines that are not JSON (LAVA tags some with YAML) are
 * counted and skipped, and so are entries over LAVA_ENTRY_MAX.  Returns
 * the number of lines consumed.
 */
size_t lava_log_feed(struct lava_log *log, const char *body, size_t len);
void lava_log_release(struct lava_log *log);

/* `sched-bot target status NAME`: devices, health, queue (its ops'). */
int target_lava_status(const char *name, FILE *out);

#endif
