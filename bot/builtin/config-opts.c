// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/config-opts.c - the configuration keys of each library module,
 * read into its options struct.  The keys' defaults are in the table
 * (config-keys.c), so these read them through config_get() like any
 * value.  No command here: the unit tests link this file beside the
 * library.
 */
#include "builtin/config-opts.h"
#include "config.h"
#include "outbox.h"
#include "secret.h"
#include "smtp.h"

void smtp_opts_from_config(struct smtp_opts *o)
{
	o->url = config_get("smtp.url");
	o->user = config_get("smtp.user");
	o->password = config_get("smtp.password");
	o->password_file = config_get("smtp.passwordFile");
	o->env_password = secret_env_password();
	o->tls = config_get("smtp.tls");
	o->cafile = config_get("smtp.caFile");
	o->from = config_get("smtp.from");
	o->timeout = config_get_int("smtp.timeout");
}

void outbox_opts_from_config(struct outbox_opts *o)
{
	o->dir = config_get("outbox.dir");
	o->max_per_hour = config_get_int("bot.maxPerHour");
	o->max_per_day = config_get_int("bot.maxPerDay");
	o->max_per_thread = config_get_int("bot.maxPerThread");
	o->max_rcpt_per_hour = config_get_int("bot.maxRecipientsPerHour");
	o->max_rcpt_per_day = config_get_int("bot.maxRecipientsPerDay");
	o->max_recipients = config_get_int("reply.maxRecipients");
	o->max_age = config_get_int("outbox.maxAge");
	o->check_lore = config_get_bool("outbox.checkLore") > 0;
}
