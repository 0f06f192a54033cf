/*
 * mpi.c - the endgame tables' build shared by the K processes of mpirun
 * (mc_egdb_dist, docs/EGDB.md "Over MPI"), compiled twice.  With MC_MPI
 * (make, when Open MPI's mpicc is there) it is the program mancala-mpi:
 * its main, which runs `egdb build` and nothing else, and the build's
 * transport over Open MPI.  Without, it is the plain mancala's side,
 * which never links MPI: one process builds alone, and several started
 * by mpirun are told to run mancala-mpi (as scientific codes ship gmx and
 * gmx_mpi, so that the installed program needs no MPI library).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Whether this process was started by mpirun (or another MPI launcher)
   as one of several. */
static int launched_as_many(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                       "PMIX_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        if (v && atoi(v) > 1)
            return 1;
    }
    return 0;
}

#ifdef MC_MPI
#include <limits.h>
#include <mpi.h>
#include <time.h>

static int started;

static int mpi_exchange(void *ctx, uint64_t *const *out, const size_t *outn,
                        uint64_t **in, size_t *inn)
{
    (void)ctx;
    int K, me;
    MPI_Comm_size(MPI_COMM_WORLD, &K);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int *sc = calloc((size_t)K * 4, sizeof *sc);
    if (!sc)
        return -1;
    int *sd = sc + K, *rcn = sc + 2 * K, *rd = sc + 3 * K;
    size_t tot = 0;
    int ok = 1;
    for (int k = 0; k < K; k++) {
        size_t n = k == me ? 0 : outn[k];
        if (n > INT_MAX || tot + n > INT_MAX)
            ok = 0;
        sc[k] = ok ? (int)n : 0;
        sd[k] = (int)tot;
        tot += ok ? n : 0;
    }
    uint64_t *sbuf = malloc(tot ? tot * sizeof *sbuf : 1);
    if (!sbuf)
        ok = 0;
    for (int k = 0; k < K && ok; k++)
        if (sc[k])
            memcpy(sbuf + sd[k], out[k], (size_t)sc[k] * sizeof *sbuf);
    /* every rank learns whether every rank could send */
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
        free(sbuf);
        free(sc);
        return -1;
    }
    MPI_Alltoall(sc, 1, MPI_INT, rcn, 1, MPI_INT, MPI_COMM_WORLD);
    size_t rtot = 0;
    for (int k = 0; k < K; k++) {
        rd[k] = (int)rtot;
        rtot += (size_t)rcn[k];
    }
    uint64_t *rbuf =
        rtot > INT_MAX ? NULL : malloc(rtot ? rtot * sizeof *rbuf : 1);
    int rc = -1;
    if (rbuf && MPI_Alltoallv(sbuf, sc, sd, MPI_UINT64_T, rbuf, rcn, rd,
                              MPI_UINT64_T, MPI_COMM_WORLD) == MPI_SUCCESS) {
        *in = rbuf;
        *inn = rtot;
        rc = 0;
    } else {
        free(rbuf);
    }
    free(sbuf);
    free(sc);
    return rc;
}

/* A sum is also where the ranks wait for one another (for rank 0's small
   layers, for its writes): polled, sleeping between polls, so that a
   waiting process does not take a core from a working one. */
static int mpi_sum(void *ctx, uint64_t *v, int n)
{
    (void)ctx;
    MPI_Request rq;
    if (MPI_Iallreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, MPI_SUM,
                       MPI_COMM_WORLD, &rq) != MPI_SUCCESS)
        return -1;
    long nap = 0;
    for (int polls = 0;; polls++) {
        int done = 0;
        if (MPI_Test(&rq, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return -1;
        if (done)
            return 0;
        if (polls < 2000)
            continue;
        nap = nap < 1000000 ? nap + 20000 : 1000000; /* up to 1 ms */
        struct timespec ts = {0, nap};
        nanosleep(&ts, NULL);
    }
}

int cli_mpi_start(mc_egdb_dist *d)
{
    memset(d, 0, sizeof *d);
    d->size = 1;
    if (!launched_as_many())
        return 0;
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
        fprintf(stderr, _("mancala-mpi egdb build: MPI_Init failed\n"));
        return -1;
    }
    started = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &d->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &d->size);
    d->exchange = mpi_exchange;
    d->sum = mpi_sum;
    return d->size > 1;
}

void cli_mpi_end(int failed)
{
    if (!started)
        return;
    started = 0;
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (failed && size > 1)
        MPI_Abort(MPI_COMM_WORLD, 1); /* the others may wait on this one */
    MPI_Finalize();
}

static void usage(FILE *f)
{
    fprintf(f, _("usage: mpirun -np K mancala-mpi egdb build oware[:awari] "
                 "--seeds N [options]\n"
                 "       mancala-mpi --help | --version\n\n"
                 "The endgame tables' build of 'mancala egdb build', with the "
                 "same\narguments, shared by the K processes of mpirun (Open "
                 "MPI); alone,\nit builds as one process.  Every other command "
                 "is mancala's.\n'mancala-mpi egdb build --help' lists the "
                 "options.\n"
                 "Exit status: 0 success, 1 bad input or a failed build, 2 bad "
                 "usage.\n"));
}

int main(int argc, char **argv)
{
    int rc = cli_main_prologue(&argc, argv, "mancala-mpi", usage);
    if (rc >= 0)
        return rc;
    int egdb = strcmp(argv[1], "egdb") == 0;
    if (egdb && argc > 2 && strcmp(argv[2], "build") == 0)
        return cmd_egdb(argc - 1, argv + 1);
    if (egdb && argc > 2 && cli_is_help(argv[2])) {
        usage(stdout);
        return 0;
    }
    if (egdb && argc == 2)
        usage(stderr);
    else
        fprintf(stderr,
                _("mancala-mpi: '%s%s%s' is the plain mancala's: only 'egdb "
                  "build' runs here (try 'mancala-mpi --help')\n"),
                argv[1], egdb ? " " : "", egdb ? argv[2] : "");
    return EXIT_USAGE;
}

#else

int cli_mpi_start(mc_egdb_dist *d)
{
    memset(d, 0, sizeof *d);
    d->size = 1;
    if (launched_as_many()) {
        fprintf(stderr,
                _("mancala egdb build: started by mpirun as one of several "
                  "processes, which would all build the same files; mancala "
                  "never links MPI: the shared build is mancala-mpi's "
                  "(mpirun -np K mancala-mpi egdb build ..., the same "
                  "arguments; docs/EGDB.md \"Over MPI\")\n"));
        return -2;
    }
    return 0;
}

void cli_mpi_end(int failed)
{
    (void)failed;
}

#endif
