/*
 * meter.c - what a build shows as it goes: the program's anonymous memory
 * (RssAnon in /proc/self/status) sampled by a thread every 10 ms, for the
 * peaks a build reports per layer (docs/EGDB.md, "Memory budget";
 * docs/SOLVED.md), and the progress line of the layers.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static long rss_anon_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    long kb = -1;
    if (f) {
        char line[128];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "RssAnon: %ld kB", &kb) == 1)
                break;
        fclose(f);
    }
    return kb;
}

static void *meter_run(void *arg)
{
    cli_meter *m = arg;
    for (;;) {
        long kb = rss_anon_kb();
        pthread_mutex_lock(&m->lock);
        int stop = m->stop;
        m->now_kb = kb;
        if (kb > m->peak_kb)
            m->peak_kb = kb;
        pthread_mutex_unlock(&m->lock);
        if (stop || kb < 0)
            return NULL;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

void cli_meter_start(cli_meter *m)
{
    m->stop = 0;
    m->now_kb = m->peak_kb = 0;
    pthread_mutex_init(&m->lock, NULL);
    m->running =
        rss_anon_kb() >= 0 && pthread_create(&m->tid, NULL, meter_run, m) == 0;
}

long cli_meter_take(cli_meter *m)
{
    long kb = rss_anon_kb();
    pthread_mutex_lock(&m->lock);
    if (kb > m->peak_kb)
        m->peak_kb = kb;
    long peak = m->running ? m->peak_kb : -1;
    m->peak_kb = m->now_kb;
    pthread_mutex_unlock(&m->lock);
    return peak;
}

void cli_meter_stop(cli_meter *m)
{
    if (m->running) {
        pthread_mutex_lock(&m->lock);
        m->stop = 1;
        pthread_mutex_unlock(&m->lock);
        pthread_join(m->tid, NULL);
    }
    pthread_mutex_destroy(&m->lock);
}

void cli_layer_bar(int tty, int n, int max, const char *phase, double frac,
                   double eta)
{
    char bars[31];
    int w = (int)(frac * 30);
    for (int i = 0; i < 30; i++)
        bars[i] = i < w ? '#' : '.';
    bars[30] = 0;
    char etas[32];
    if (eta < 0)
        snprintf(etas, sizeof etas, "?");
    else
        snprintf(etas, sizeof etas, "%dm%02ds", (int)eta / 60, (int)eta % 60);
    int done = !strcmp(phase, "done");
    if (tty) {
        fputc('\r', stderr);
        fprintf(stderr, _("layer %2d/%d %-6s [%s] %5.1f%%  left %-8s%s"), n,
                max, phase, bars, 100 * frac, etas, done ? "\n" : "");
    } else if (done)
        fprintf(stderr, _("layer %2d/%d done [%s] %5.1f%%  left %s\n"), n, max,
                bars, 100 * frac, etas);
}
