"""adbutils (PyPI) runs its device API against the embedded phone served by `droidmcp sim --adb`.

Usage: adbutils_peer_test.py SERIAL   (ANDROID_ADB_SERVER_PORT names the adb server it is connected to)
Exits 1 when any check fails.
"""

import os
import sys
import tempfile
import time

import adbutils

FAILED = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        FAILED.append(what)


def main(serial):
    port = int(os.environ.get("ANDROID_ADB_SERVER_PORT", "5037"))
    adb = adbutils.AdbClient(host="127.0.0.1", port=port)
    d = adb.device(serial)

    check(d.shell("echo hello") == "hello", "shell echo")
    r = d.shell2("false")
    check(r.returncode == 1, f"shell2 exit code ({r.returncode})")
    check(d.prop.model != "", f"prop.model {d.prop.model!r}")
    check(d.getprop("ro.build.version.release") == "14", "getprop release 14")

    w, h = d.window_size()
    check((w, h) == (1080, 2400), f"window_size {w}x{h}")
    check(d.rotation() == 0, "rotation 0")

    pkgs = d.list_packages()
    check("com.android.settings" in pkgs and "com.google.android.deskclock" in pkgs, "list_packages")

    d.app_start("com.google.android.deskclock")
    cur = d.app_current()
    check(cur.package == "com.google.android.deskclock", f"app_current after app_start: {cur}")
    d.app_start("com.android.settings", ".Settings")
    check(d.app_current().package == "com.android.settings", "app_start with an activity")
    d.app_stop("com.android.settings")
    check(d.app_current().package != "com.android.settings", "app_stop leaves Settings")

    info = d.app_info("com.google.android.deskclock")
    check(info is not None and info.version_name == "14", f"app_info {info and info.version_name}")

    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "up.txt")
        with open(src, "wb") as f:
            f.write(b"adbutils \x00\xff push\n")
        d.sync.push(src, "/sdcard/Download/up.txt")
        back = os.path.join(tmp, "down.txt")
        d.sync.pull("/sdcard/Download/up.txt", back)
        with open(back, "rb") as f:
            check(f.read() == b"adbutils \x00\xff push\n", "push/pull byte-exact")

    img = d.screenshot()
    check(img.size == (1080, 2400), f"screenshot {img.size}")

    xml = d.dump_hierarchy()
    check(xml.startswith("<?xml") and "hierarchy" in xml, "dump_hierarchy")

    d.open_browser("example.net/adbutils")
    check(d.app_current().package == "com.android.chrome", "open_browser opens Chrome")

    check(d.is_screen_on(), "is_screen_on")
    d.keyevent("HOME")
    check(d.app_current().package == "com.google.android.apps.nexuslauncher", "HOME key")

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "logcat.txt")
        evt = d.logcat(path, clear=False, command="logcat -v time -d")
        # `-d` dumps the buffer and ends the stream, so adbutils' copying thread finishes on its own.
        # Waiting for that, not for the first bytes, reads the whole dump: the first line alone may
        # come from another tag, and under a loaded CI machine stopping at it failed this check.
        deadline = time.monotonic() + 30
        while not evt.is_done() and time.monotonic() < deadline:
            time.sleep(0.05)
        check(evt.is_done(), "logcat -d ends its stream")
        evt.stop(timeout=5)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        check("ActivityManager" in text, "logcat streams the log")

    if FAILED:
        print(f"{len(FAILED)} adbutils checks failed", flush=True)
        sys.exit(1)
    print("all adbutils checks passed", flush=True)


main(sys.argv[1])
