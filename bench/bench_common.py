"""Helpers the bench scripts share: the machine's description, the load, CPU of children,
number formats and the progress log. Python 3 standard library only."""
import os
import platform
import resource
import subprocess
import sys


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def children_cpu():
    """User + sys seconds of every child process waited for so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def first_line(cmd):
    """The first line a command prints (stdout, else stderr), or '?'."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        return (p.stdout or p.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.SubprocessError):
        return "?"


def machine_line():
    """'machine: N cores, CPU, MEM RAM, OS RELEASE' from /proc and platform."""
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "?"
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal:"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                break
    except OSError:
        pass
    return (f"machine: {os.cpu_count()} cores, {cpu}, {mem} RAM, {platform.system()} "
            f"{platform.release()}")


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def f_int(x):
    return "-" if x is None else f"{int(x):,}"


def f_sec(x):
    return "-" if x is None else f"{x:.3f}"


def format_table(header, rows, numeric, markdown=False):
    """Rows of strings under `header`, as aligned text (numeric columns right-aligned) or as a
    Markdown table."""
    if markdown:
        lines = ["| " + " | ".join(header) + " |",
                 "|" + "|".join("---:" if h in numeric else "---" for h in header) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h)
              for i, h in enumerate(header)]

    def fmt(row):
        return "  ".join(c.rjust(w) if header[i] in numeric else c.ljust(w)
                         for i, (c, w) in enumerate(zip(row, widths))).rstrip()

    return "\n".join([fmt(header), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows])
