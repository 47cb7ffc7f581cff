"""Batch mode of the Python peers (polars_read.py, fastparquet_read.py): many files in one process, so that the
interpreter and the library load once, and a crash (a segmentation fault in native code) costs only the column it
happened in.

stdin: a JSON list of jobs {"file", "hints", "skip"?: {column: error}} (`skip`: columns not to read, with the error
to report for them). stdout: one JSON line per event, flushed at once:
  {"version": ...}                                  first;
  {"start": i, "column": name | null}               before reading file i (null: the whole file) or one column;
  {"done": i, "status", "rows" | "error", "columnErrors"?}   file i read.

With `isolate` (fastparquet, single-threaded), each file is read in a forked child: when the child dies by a
signal, the column it was reading gets "<peer>: exited with SIG… while reading column c" and the file is read again
without it, in a new child (fork after the imports: no new interpreter, no re-import). Without it (polars, whose
thread pools must not be forked) a crash ends the process; peers.ts then sees the file and column from the last
"start" line and starts a new process after them.
"""
import json
import os
import resource
import signal
import sys


def emit(o):
    sys.stdout.write(json.dumps(o, allow_nan=False) + '\n')
    sys.stdout.flush()


def run(version, one, peer, isolate=False):
    """one(path, hints, skip, mark) -> result dict; mark(column) is called before each read."""
    jobs = json.loads(sys.stdin.read())
    emit({'version': version})
    for i, job in enumerate(jobs):
        if not isolate:
            emit({'done': i, **one(job['file'], job.get('hints'), job.get('skip'), lambda column, i=i: emit({'start': i, 'column': column}))})
            continue
        skip = dict(job.get('skip') or {})
        while True:
            result, crashed = _forked(job, skip, one)
            if crashed is None:
                emit({'done': i, **result})
                break
            column, why = crashed
            if column is None and '' not in skip:
                skip[''] = f'{peer}: {why} while reading the whole file'  # read it column by column now
                continue
            if column is None or column in skip:
                emit({'done': i, 'status': 'error', 'error': f'{peer}: {why}'})
                break
            skip[column] = f'{peer}: {why} while reading column {column}'


def _forked(job, skip, one):
    """Reads one file in a forked child; returns (result, None), or (None, (column being read, how it ended))."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report progress and the result through the pipe, then exit at once
        os.close(r)
        # a crash is expected here now and then: no core file (writing one takes about a second each)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        out = os.fdopen(w, 'w')

        def mark(column):
            out.write(json.dumps({'start': column}) + '\n')
            out.flush()
        try:
            res = one(job['file'], job.get('hints'), skip, mark)
            out.write(json.dumps({'result': res}, allow_nan=False) + '\n')
            out.flush()
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r) as inp:
        lines = inp.read().split('\n')
    _, status = os.waitpid(pid, 0)
    column = None
    for line in lines:
        if not line:
            continue
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if 'result' in o:
            return o['result'], None
        column = o.get('start')
    if os.WIFSIGNALED(status):
        why = f'exited with {signal.Signals(os.WTERMSIG(status)).name}'
    else:
        why = f'exited with code {os.WEXITSTATUS(status)} and no result'
    return None, (column, why)
