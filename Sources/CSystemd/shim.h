#ifndef APPFLIPD_CSYSTEMD_SHIM_H
#define APPFLIPD_CSYSTEMD_SHIM_H

// Without this, sd-journal.h turns sd_journal_sendv into a macro that stamps the C shim's own
// file and line on every entry; the Swift side sends CODE_FILE/CODE_LINE/CODE_FUNC itself.
#define SD_JOURNAL_SUPPRESS_LOCATION 1

#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

#endif
