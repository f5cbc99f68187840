/* proc_tree.h: every process a runner may have behind it, found from outside.
 *
 * A duel stops the side that is not being timed (session_pause). Stopping the
 * runner's pid alone would leave any process it started running: a helper the
 * sandbox would refuse, but that a runner whose sandbox is gone could fork, move
 * into a group or session of its own (setsid), and orphan. So the judge stops
 * the runner's whole tree: its descendants through /proc/PID/task/TID/children
 * (whatever group or session they are in), and, since the judge makes itself
 * a child subreaper in a duel, any orphan such a helper became: a child of the
 * judge's that is not one of its runners. */
#ifndef SCANLAB_PROC_TREE_H
#define SCANLAB_PROC_TREE_H

#include <sys/types.h>

enum { PROC_TREE_MAX = 64 };

/* Orphans of the judge's descendants become its children (PR_SET_CHILD_SUBREAPER).
 * 0, or -1 with errno. */
int judge_tree_adopt_orphans(void);
/* Appends root's descendants (not root) to out[n..cap); returns the new count. */
int judge_tree_descendants(pid_t root, pid_t *out, int n, int cap);
/* Appends the judge's children that are not in runners[0..n_runners), and their
 * descendants; returns the new count. */
int judge_tree_strays(const pid_t *runners, int n_runners, pid_t *out, int n, int cap);
/* Waits until pid is stopped (state T or t), gone, or the deadline (clock_now_s)
 * has passed. 1 when stopped or gone, else 0. */
int judge_tree_wait_stopped(pid_t pid, double deadline);

#endif
