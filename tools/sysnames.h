/* Syscall names of the running architecture, from libseccomp's tables. */
#ifndef RPT_SYSNAMES_H
#define RPT_SYSNAMES_H

/* The name of syscall nr ("nr_N" written into buf when libseccomp does not
 * know it).  The returned string lives as long as the program. */
const char *rpt_syscall_name(int nr, char *buf, unsigned len);
/* The number of a syscall name, or of a decimal number; -1 if unknown. */
int rpt_syscall_nr(const char *name);

#endif
