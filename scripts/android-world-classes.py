#!/usr/bin/env python3
"""AndroidWorld's own task code, unmodified, class by class against a phone: for each task class of
its registry and each seed, the parameters it draws, `initialize_task`, `is_successful` on the
untouched phone (it must be 0), and `tear_down`; one TSV line per (class, seed) with where it stopped
and the error's first line. This is how much of AndroidWorld runs on the embedded phone (issues 35
and 36 measure progress with it).

AndroidWorld is not on a package registry, so this needs a checkout of google-research/android_world
(ANDROID_WORLD=path) and a Python with its requirements.txt; scripts/android-world starts the phone
(`droidmcp sim --emulator`) and runs this with the right ports. Not part of the test command: CI
reaches only the package registries.

With `--drive DROIDMCP`, a class that has a drive entry (scripts/android-world-drive/<app>.py: `DRIVES`
maps a class name to a function of the task giving a droidmcp task id and its parameters, or None
when the task's setup left nothing to do) is also done
through the phone's UI after the untouched check: `DROIDMCP tasks replay ID --device emulator-PORT
--no-setup --param k=v ...` plays droidmcp's golden over AndroidWorld's own setup, then AndroidWorld's
`is_successful` runs again (column `driven`, which must be 1) beside droidmcp's own verdict on the
same phone (column `droidmcp`).

Usage: android-world-classes.py CONSOLE_PORT GRPC_PORT ADB_PATH [--seeds 0,1] [--only REGEX]
       [--drive DROIDMCP]
"""

import argparse
import importlib.util
import json
import os
import pathlib
import random
import re
import subprocess
import sys
import time
import traceback

DRIVE_DIR = pathlib.Path(__file__).resolve().parent / "android-world-drive"


def drives() -> dict:
    """Every app's drive entries, by AndroidWorld class name."""
    found = {}
    for path in sorted(DRIVE_DIR.glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"aw_drive_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name, drive in module.DRIVES.items():
            if name in found:
                raise SystemExit(f"android-world: {name} has drive entries in two files")
            found[name] = drive
    return found


# How long the drive waits after the golden before AndroidWorld scores it: five periods of the
# accessibility forwarder (see the drive's is_successful below).
SETTLE_SECONDS = 0.5

ANSWER = re.compile(r' answer ("(?:[^"\\]|\\.)*")')


def drive(droidmcp: str, serial: str, task_id: str, params: dict) -> str:
    """Plays droidmcp's golden of `task_id` with `params` on the phone as AndroidWorld set it up;
    returns droidmcp's own result line (PASS/FAIL, score, failed checks, the answer it gave)."""
    cmd = [droidmcp, "--device", serial, "tasks", "replay", task_id, "--no-setup"]
    for k, v in params.items():
        cmd += ["--param", f"{k}={v}"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    lines = [l for l in out.stdout.splitlines() if l.startswith(("PASS", "FAIL"))]
    if not lines:
        raise RuntimeError(f"droidmcp replay: {(out.stderr or out.stdout).strip()[:300]}")
    return lines[0].replace("\t", " ")


def first_line(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}".strip().replace("\t", " ")
    return text.splitlines()[0][:300] if text else type(e).__name__


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("console", type=int)
    ap.add_argument("grpc", type=int)
    ap.add_argument("adb")
    ap.add_argument("--seeds", default="0,1")
    ap.add_argument("--only", default="")
    ap.add_argument("--drive", default="", metavar="DROIDMCP")
    args = ap.parse_args()
    # Drive entries may import AndroidWorld's modules (its pools), so its path comes first.
    sys.path.insert(0, os.environ["ANDROID_WORLD"])
    entries = drives() if args.drive else {}
    serial = f"emulator-{args.console}"
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")

    # pylint: disable=import-outside-toplevel
    from absl import logging as absl_logging
    from android_env import loader
    from android_env.components import config_classes
    from android_world import registry
    from android_world.env import android_world_controller, env_launcher, interface, json_action

    absl_logging.set_verbosity(absl_logging.ERROR)
    # android_world_controller.get_controller with one change of argument: the phone has the
    # accessibility forwarder installed (as AndroidWorld's AVD does), so the wrapper does not
    # download its APK (get_controller always installs it, and CI's machines reach no bucket).
    config = config_classes.AndroidEnvConfig(
        task=config_classes.FilesystemTaskConfig(
            path=android_world_controller._write_default_task_proto()  # pylint: disable=protected-access
        ),
        simulator=config_classes.EmulatorConfig(
            emulator_launcher=config_classes.EmulatorLauncherConfig(
                emulator_console_port=args.console,
                adb_port=args.console + 1,
                grpc_port=args.grpc,
            ),
            adb_controller=config_classes.AdbControllerConfig(adb_path=args.adb),
        ),
    )
    controller = android_world_controller.AndroidWorldController(
        loader.load(config), install_a11y_forwarding_app=False
    )
    env = interface.AsyncAndroidEnv(controller)
    env_launcher.setup_env(env, emulator_setup=False, freeze_datetime=True)
    # What AndroidWorld's one-time app setup (emulator_setup=True, which installs APKs from its
    # bucket) leaves on the phone besides the apps, done here without it: Simple SMS Messenger is
    # the default SMS app (SimpleSMSMessengerApp.setup taps through its role dialog).
    subprocess.run(
        [args.adb, "-s", serial, "shell", "cmd", "role", "add-role-holder",
         "android.app.role.SMS", "com.simplemobiletools.smsmessenger"],
        check=True, capture_output=True, timeout=60,
    )
    # Pro Expense's set-up pages are done there too: its own ExpenseApp.setup (pm clear, launch,
    # tap NEXT and CONTINUE) runs here unchanged.
    from android_world.env.setup_device import apps  # pylint: disable=import-outside-toplevel

    apps.ExpenseApp.setup(env)
    tasks = registry.TaskRegistry().get_registry(registry.TaskRegistry.ANDROID_WORLD_FAMILY)
    only = re.compile(args.only) if args.only else None
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    print("class\tseed\tstage\tuntouched\tdriven\tdroidmcp\tseconds\terror", flush=True)
    for name in sorted(tasks):
        if only and not only.search(name):
            continue
        cls = tasks[name]
        for seed in seeds:
            start = time.time()
            stage, score, driven, theirs, error = "params", "", "", "", ""
            task = None
            try:
                random.seed(seed)
                params = cls.generate_random_params()
                params["seed"] = seed
                task = cls(params)
                stage = "initialize_task"
                env.reset(go_home=True)
                task.initialize_task(env)
                stage = "is_successful"
                try:
                    score = str(task.is_successful(env))
                except Exception as e:  # pylint: disable=broad-except
                    # A check can raise on an untouched phone where it does on a real one too
                    # (RetroPlayingQueue reads music_playback_state.db, which its own setup deleted
                    # and only the app's start creates again). Recorded as `raised`, which counts as
                    # not running; the drive still runs, so the goal done is scored all the same.
                    if name not in entries:
                        raise
                    score, error = "raised", first_line(e)
                if name in entries:
                    stage = "drive"
                    # An entry gives None when AndroidWorld's setup left nothing to do (its goal
                    # already holds; RecipeDeleteMultipleRecipesWithConstraint drawing an ingredient
                    # no recipe uses): the phone is scored as it is.
                    planned = entries[name](task)
                    theirs = "nothing to do"
                    if planned is not None:
                        task_id, values = planned
                        theirs = drive(args.drive, serial, task_id, values)
                    # An information-retrieval golden ends with an answer: AndroidWorld's agents
                    # give theirs to its env as an `answer` action, which is what it scores.
                    given = ANSWER.search(theirs)
                    if given:
                        env.execute_action(
                            json_action.JSONAction(action_type="answer", text=json.loads(given[1]))
                        )
                    stage = "is_successful after drive"
                    # AndroidWorld's agents wait for the screen to settle after an action (M3A's
                    # wait_after_action_seconds, 2 s) before anything reads the UI again. Its UI
                    # checks read the accessibility forwarder's latest tree, which the forwarder
                    # sends every 100 ms (a11yTreePeriodMs), so scoring within a period of the
                    # golden's last tap can read the tree from before it.
                    time.sleep(SETTLE_SECONDS)
                    driven = str(task.is_successful(env))
                stage = "tear_down"
                task.tear_down(env)
                stage = "ok"
            except Exception as e:  # pylint: disable=broad-except
                error = first_line(e)
                if os.environ.get("AW_TRACE"):
                    traceback.print_exc()
                if task is not None and stage not in ("params", "tear_down"):
                    try:
                        task.tear_down(env)
                    except Exception:  # pylint: disable=broad-except
                        pass
            print(
                f"{name}\t{seed}\t{stage}\t{score}\t{driven}\t{theirs}\t"
                f"{time.time() - start:.1f}\t{error}",
                flush=True,
            )
    env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
