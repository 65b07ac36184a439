// renameat2, which the Glibc module leaves out (glibc declares it only under
// _GNU_SOURCE, and has exported it since 2.28), for swapping two folders in one step.
int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);

// From <linux/fs.h>: exchange the two paths, both of which must exist.
#define ZINC_RENAME_EXCHANGE (1 << 1)
