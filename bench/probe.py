#!/usr/bin/env python3
"""Starts one app on the current X display and measures it from outside (used by scripts/bench).

    probe.py [--settle S] [--timeout S] [--shot FILE.png] [--log FILE] [--out FILE]
             [--usable-log DIR] -- COMMAND...

Prints (or writes to --out) one JSON line {"map_ms", "paint_ms", "pss_kib", "procs"}, with
"usable_ms", "usable_screen" and "page_ms" too when --usable-log is given, and exits 0 (--shot: the
window at its first paint; --log: the app's output; --trace: every read-back), or prints the
reason on stderr and exits 1 when the app exits early, never paints (or, with --usable-log, never
logs its first usable screen), or its memory cannot be read.

First paint: the clock starts just before the app is exec'd. We look for the app's window (the
largest mapped top-level window; the display is private to the bench, so there is no other) and,
once it is there, ask the X server's DAMAGE extension to report every drawing into it; after each
report (and at least every 50 ms) we read the window's pixels back (XGetImage). The window counts
as painted when its pixels hold at least MIN_COLOURS distinct colours: an empty window or web view
is one flat colour (seen with --trace: every read-back before the first paint is), while any
rendered text, being anti-aliased, brings dozens (a few hundred on both apps' first screens). The
time is taken just before the read-back that first sees it, a few ms after the drawing was
reported.

First usable screen (--usable-log DIR, Specdesk only): the app logs one line when its first real
screen is rendered and can take input (ui/src/lib/startup.ts, then the `first_usable` command):
`... specdesk::startup: first usable screen screen="welcome" unix_ms=... page_ms=...`, in its log
files in DIR (SPECDESK_DATA_DIR/logs). After the first paint we read them every 20 ms until the
line is there (within the same --timeout); usable_ms is its unix_ms minus the wall-clock time
taken just before the exec (the time is the app's, so how often we read does not matter);
page_ms, the web page's own time to it from its navigation start, says where the time went. No
pixel tells a usable screen from the start screen, hence the app's own word.

Idle memory: SETTLE seconds after the first paint, the sum of Pss (/proc/PID/smaps_rollup) over the
app's process and all its descendants (WebKitWebProcess, WebKitNetworkProcess, ...).

Only the Python standard library and libX11/libXdamage (through ctypes) are used.
"""

import argparse
import ctypes
import ctypes.util
import json
import os
import re
import select
import signal
import subprocess
import struct
import sys
import time
import zlib

MIN_COLOURS = 8  # distinct colours that mean "painted content" (see above)
MIN_SIZE = 200  # smaller top-level windows are not the app's main window
POLL_S = 0.05  # read the window back at least this often, damage or not
LOG_POLL_S = 0.02  # read the app's log this often while waiting for its first usable screen
USABLE_LINE = re.compile(
    r'first usable screen.*?screen="?([\w-]+)"?.*?unix_ms=(\d+)(?:.*?page_ms=([\d.]+))?')


class XWindowAttributes(ctypes.Structure):
    _fields_ = [
        ("x", ctypes.c_int), ("y", ctypes.c_int),
        ("width", ctypes.c_int), ("height", ctypes.c_int),
        ("border_width", ctypes.c_int), ("depth", ctypes.c_int),
        ("visual", ctypes.c_void_p), ("root", ctypes.c_ulong),
        ("class_", ctypes.c_int), ("bit_gravity", ctypes.c_int),
        ("win_gravity", ctypes.c_int), ("backing_store", ctypes.c_int),
        ("backing_planes", ctypes.c_ulong), ("backing_pixel", ctypes.c_ulong),
        ("save_under", ctypes.c_int), ("colormap", ctypes.c_ulong),
        ("map_installed", ctypes.c_int), ("map_state", ctypes.c_int),
        ("all_event_masks", ctypes.c_long), ("your_event_mask", ctypes.c_long),
        ("do_not_propagate_mask", ctypes.c_long), ("override_redirect", ctypes.c_int),
        ("screen", ctypes.c_void_p),
    ]


class XImage(ctypes.Structure):
    _fields_ = [
        ("width", ctypes.c_int), ("height", ctypes.c_int),
        ("xoffset", ctypes.c_int), ("format", ctypes.c_int),
        ("data", ctypes.c_void_p),
        ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
        ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int),
        ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int),
        ("bits_per_pixel", ctypes.c_int),
    ]


IS_VIEWABLE = 2
Z_PIXMAP = 2
DAMAGE_REPORT_NON_EMPTY = 3
ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)


def load(name):
    path = ctypes.util.find_library(name)
    if not path:
        raise OSError(f"lib{name} not found")
    return ctypes.CDLL(path)


class Screen:
    def __init__(self):
        x = self.x = load("X11")
        x.XOpenDisplay.restype = ctypes.c_void_p
        x.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x.XDefaultRootWindow.restype = ctypes.c_ulong
        x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        x.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong] + [ctypes.c_void_p] * 4
        x.XGetWindowAttributes.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p]
        x.XGetImage.restype = ctypes.POINTER(XImage)
        x.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                                ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        x.XFree.argtypes = [ctypes.c_void_p]
        x.XPending.argtypes = [ctypes.c_void_p]
        x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        x.XConnectionNumber.argtypes = [ctypes.c_void_p]
        x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x.XSetErrorHandler.argtypes = [ERROR_HANDLER]
        # A window can vanish between listing it and reading it: ignore X errors, never abort.
        self._on_error = ERROR_HANDLER(lambda _d, _e: 0)
        x.XSetErrorHandler(self._on_error)
        self.dpy = x.XOpenDisplay(None)
        if not self.dpy:
            raise OSError(f"cannot open display {os.environ.get('DISPLAY')!r}")
        self.root = x.XDefaultRootWindow(self.dpy)
        self.fd = x.XConnectionNumber(self.dpy)
        self.event = ctypes.create_string_buffer(256)
        self.damage = None
        self.watched = set()
        try:
            d = self.xd = load("Xdamage")
            d.XDamageQueryExtension.argtypes = [ctypes.c_void_p] + [ctypes.c_void_p] * 2
            d.XDamageCreate.restype = ctypes.c_ulong
            d.XDamageCreate.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int]
            d.XDamageSubtract.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong,
                                          ctypes.c_ulong]
            ev, err = ctypes.c_int(), ctypes.c_int()
            if d.XDamageQueryExtension(self.dpy, ctypes.byref(ev), ctypes.byref(err)):
                self.damage = [d.XDamageCreate(self.dpy, self.root, DAMAGE_REPORT_NON_EMPTY)]
                x.XSync(self.dpy, 0)
        except OSError:
            pass  # no libXdamage: read the window back every 10 ms instead

    def wait_for_change(self, timeout):
        """Returns once something was drawn (or after `timeout` s, or 10 ms without DAMAGE)."""
        if self.damage is None:
            time.sleep(min(timeout, 0.01))
            return
        if not self.x.XPending(self.dpy):
            select.select([self.fd], [], [], timeout)
        while self.x.XPending(self.dpy):
            self.x.XNextEvent(self.dpy, self.event)
        for damage in self.damage:
            self.xd.XDamageSubtract(self.dpy, damage, 0, 0)

    def watch(self, window):
        """Reports drawing into `window` too (the root's damage does not include its children's)."""
        if self.damage is None or window in self.watched:
            return
        self.watched.add(window)
        self.damage.append(self.xd.XDamageCreate(self.dpy, window, DAMAGE_REPORT_NON_EMPTY))
        self.x.XSync(self.dpy, 0)

    def main_window(self):
        """(window, (x, y, width, height)) of the largest mapped top-level window, or None."""
        root_ret, parent_ret = ctypes.c_ulong(), ctypes.c_ulong()
        children, count = ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
        if not self.x.XQueryTree(self.dpy, self.root, ctypes.byref(root_ret),
                                 ctypes.byref(parent_ret), ctypes.byref(children),
                                 ctypes.byref(count)):
            return None
        best = None
        attrs = XWindowAttributes()
        for i in range(count.value):
            if not self.x.XGetWindowAttributes(self.dpy, children[i], ctypes.byref(attrs)):
                continue
            if (attrs.map_state != IS_VIEWABLE or attrs.override_redirect
                    or attrs.width < MIN_SIZE or attrs.height < MIN_SIZE):
                continue
            if best is None or attrs.width * attrs.height > best[1][2] * best[1][3]:
                best = (children[i], (attrs.x, attrs.y, attrs.width, attrs.height))
        if children:
            self.x.XFree(children)
        return best

    def pixels(self, rect):
        """The 32-bit pixels of `rect` (read from the root window, so never a BadMatch)."""
        x, y, w, h = rect
        img = self.x.XGetImage(self.dpy, self.root, max(x, 0), max(y, 0), w, h, 0xFFFFFF,
                               Z_PIXMAP)
        if not img:
            return None
        try:
            im = img.contents
            if im.bits_per_pixel != 32:
                raise OSError(f"the display must be 24-bit colour (got {im.bits_per_pixel} bpp)")
            return ctypes.string_at(im.data, im.bytes_per_line * im.height), im.width, im.height
        finally:
            if img.contents.data:
                self.x.XFree(img.contents.data)
            self.x.XFree(img)


def colours(buf):
    """How many distinct colours `buf` (32-bit pixels) holds; 1 cheaply when it is uniform."""
    if buf == buf[:4] * (len(buf) // 4):
        return 1
    return len(set(memoryview(buf).cast("I")))


def descendants(pid):
    """`pid` and every process below it (from /proc/*/stat)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(children.get(p, []))
    return found


def pss_kib(pid):
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith("Pss:"):
                return int(line.split()[1])
    raise OSError(f"no Pss line in /proc/{pid}/smaps_rollup")


def name_of(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return "?"


def write_png(path, buf, w, h):
    # Pixels are little-endian BGRX on the X servers this runs on (Xvfb, x86/arm).
    rgb = bytearray(w * h * 3)
    rgb[0::3], rgb[1::3], rgb[2::3] = buf[2::4], buf[1::4], buf[0::4]
    rows = b"".join(b"\0" + bytes(rgb[y * w * 3:(y + 1) * w * 3]) for y in range(h))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


def usable_line(log_dir):
    """(screen, unix_ms, page_ms) from the first "first usable screen" line in `log_dir`, or None."""
    try:
        names = sorted(n for n in os.listdir(log_dir) if n.endswith(".log"))
    except OSError:
        return None  # not made yet
    for name in names:
        try:
            with open(os.path.join(log_dir, name), errors="replace") as f:
                for line in f:
                    m = USABLE_LINE.search(line)
                    if m:
                        page = float(m.group(3)) if m.group(3) else None
                        return m.group(1), int(m.group(2)), page
        except OSError:
            continue
    return None


def wait_for_usable(proc, log_dir, deadline, timeout):
    """(screen, unix_ms, page_ms) once the app has logged its first usable screen."""
    while True:
        found = usable_line(log_dir)
        if found is not None:
            return found
        if proc.poll() is not None:
            sys.exit(f"probe: the app exited with status {proc.returncode} before its first "
                     "usable screen")
        if time.monotonic() > deadline:
            sys.exit(f"probe: no first usable screen in {log_dir} after {timeout:.0f} s")
        time.sleep(LOG_POLL_S)


def stop(proc, pids):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for p in pids:  # what the app started and did not take down with it
        if p == proc.pid:
            continue
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--settle", type=float, default=5.0)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--shot")
    ap.add_argument("--log", default=os.devnull)
    ap.add_argument("--out", help="write the JSON line here instead of to stdout")
    ap.add_argument("--usable-log", metavar="DIR",
                    help="the app's log folder: also wait for its first usable screen there")
    ap.add_argument("--trace", action="store_true",
                    help="print every read-back (ms since exec, window, colours) on stderr")
    ap.add_argument("command", nargs="+")
    args = ap.parse_args()

    screen = Screen()
    if screen.main_window() is not None:
        sys.exit("probe: a window is already open on this display")
    screen.wait_for_change(0)

    with open(args.log, "ab") as log:
        t0 = time.monotonic()
        t0_unix_ms = time.time() * 1000
        proc = subprocess.Popen(args.command, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
    map_ms = paint_ms = None
    shot = usable = None
    try:
        deadline = t0 + args.timeout
        while paint_ms is None:
            if proc.poll() is not None:
                sys.exit(f"probe: the app exited with status {proc.returncode} before painting")
            now = time.monotonic()
            if now > deadline:
                sys.exit(f"probe: no painted window after {args.timeout:.0f} s")
            found = screen.main_window()
            if found is not None:
                window, rect = found
                screen.watch(window)
                t = time.monotonic()
                if map_ms is None:
                    map_ms = (t - t0) * 1000
                got = screen.pixels(rect)
                n = colours(got[0]) if got is not None else 0
                if args.trace:
                    print(f"probe: {(t - t0) * 1000:7.1f} ms  window {rect}  {n} colours",
                          file=sys.stderr)
                if n >= MIN_COLOURS:
                    paint_ms = (t - t0) * 1000
                    shot = got
                    break
            screen.wait_for_change(POLL_S)

        settled = t0 + paint_ms / 1000 + args.settle
        if args.usable_log:
            usable = wait_for_usable(proc, args.usable_log, deadline, args.timeout)
        time.sleep(max(0.0, settled - time.monotonic()))
        if proc.poll() is not None:
            sys.exit(f"probe: the app exited with status {proc.returncode} while idle")
        pids = descendants(proc.pid)
        total, procs = 0, []
        for p in pids:
            try:
                kib = pss_kib(p)
            except OSError:
                if p == proc.pid:
                    raise
                continue  # a helper that just exited
            total += kib
            procs.append({"pid": p, "name": name_of(p), "pss_kib": kib})
    except BaseException:
        stop(proc, descendants(proc.pid) if proc.poll() is None else [])
        raise
    stop(proc, pids)

    if args.shot and shot:
        write_png(args.shot, *shot)
    result = {"map_ms": round(map_ms, 1), "paint_ms": round(paint_ms, 1)}
    if usable is not None:
        screen_name, unix_ms, page_ms = usable
        result.update(usable_ms=round(unix_ms - t0_unix_ms, 1), usable_screen=screen_name,
                      page_ms=page_ms)
    result.update(pss_kib=total, procs=procs)
    line = json.dumps(result)
    if args.out:
        with open(args.out, "w") as f:
            f.write(line + "\n")
    else:
        print(line)


if __name__ == "__main__":
    main()
