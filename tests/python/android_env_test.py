"""android_env (PyPI `android-env`), unmodified, drives the embedded phone as an existing emulator.

Usage: android_env_test.py CONSOLE_PORT GRPC_PORT ADB_SERVER_PORT ADB_PATH

`droidmcp sim --emulator CONSOLE_PORT --grpc GRPC_PORT` must be serving and announced to the adb
server on ADB_SERVER_PORT. android_env's own loader builds its EmulatorSimulator with the three ports
(so it connects instead of launching an emulator), resets (gRPC getStatus until booted, its device
settings over adb, the task's setup steps), takes 100 steps of touches and lifts (gRPC sendTouch and
getScreenshot, its adb-driven task checks), then saves a state, changes the phone, and loads the
state back: all over android_env's SnapshotService client. Last, android_env's A11yGrpcWrapper
(what AndroidWorld reads the screen through by default) wraps the same environment with
`install_a11y_forwarding=False` (the phone has the forwarder app, as an AndroidWorld AVD does):
after a reset and a step its gRPC server must hold a forest with a node of the phone's
`uiautomator dump`. Exits 1 when any check fails.
"""

import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
from android_env import loader
from android_env.components import action_type
from android_env.components import config_classes
from android_env.proto import state_pb2
from android_env.wrappers import a11y_grpc_wrapper

FAILED = []
CLOCK = "com.google.android.deskclock/com.android.deskclock.DeskClock"

TASK = f"""
id: "droidmcp_android_env"
name: "droidmcp embedded phone: Clock"
description: "Opens Clock; the agent taps anywhere."
setup_steps: [
  {{ adb_request: {{ settings: {{ name_space: SYSTEM put: {{ key: "screen_off_timeout" value: "1800000" }} }} }} }}
]
reset_steps: [
  {{ adb_request: {{ start_activity: {{ full_activity: "{CLOCK}" }} }}
     success_condition: {{ wait_for_app_screen: {{ app_screen: {{ activity: "{CLOCK}" }} timeout_sec: 10 }} num_retries: 2 }} }}
]
expected_app_screen: {{ activity: "{CLOCK}" }}
max_episode_steps: 1000
"""


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        FAILED.append(what)


def main(console_port, grpc_port, adb_server_port, adb_path):
    serial = f"emulator-{console_port}"

    def adb_shell(command):
        return subprocess.run(
            [adb_path, "-P", str(adb_server_port), "-s", serial, "shell", command],
            check=True, capture_output=True, text=True, timeout=30,
        ).stdout

    with tempfile.NamedTemporaryFile("w", suffix=".textproto", delete=False) as f:
        f.write(TASK)
        task_path = f.name
    config = config_classes.AndroidEnvConfig(
        task=config_classes.FilesystemTaskConfig(path=task_path),
        simulator=config_classes.EmulatorConfig(
            emulator_launcher=config_classes.EmulatorLauncherConfig(
                adb_port=console_port + 1,
                emulator_console_port=console_port,
                grpc_port=grpc_port,
            ),
            adb_controller=config_classes.AdbControllerConfig(
                adb_path=adb_path, adb_server_port=adb_server_port
            ),
        ),
    )
    env = loader.load(config)
    closing = env
    try:
        started = time.time()
        timestep = env.reset()
        pixels = timestep.observation["pixels"]
        height, width = pixels.shape[:2]
        size = adb_shell("wm size").split(":")[1].strip()
        check(f"{width}x{height}" == size and pixels.shape[2] == 3,
              f"reset: observation {width}x{height}x{pixels.shape[2]} is the screen ({size})")
        check(CLOCK.split("/")[0] in adb_shell("dumpsys window | grep mCurrentFocus"),
              "reset ran the task's setup: Clock is in front")
        check(pixels.std() > 0, "the observation is a picture, not a blank frame")
        print(f"     reset took {time.time() - started:.2f}s", flush=True)

        rng = np.random.default_rng(0)
        started = time.time()
        changed = 0
        last = pixels
        position = None
        for step in range(100):
            # A tap is a touch and a lift at the same place (a lift elsewhere would make a swipe);
            # kept to the lower half, away from the status bar and the shade.
            touch = step % 2 == 0
            if touch:
                position = np.array([rng.uniform(0.05, 0.95), rng.uniform(0.5, 0.9)], dtype=np.float32)
            action = {
                "action_type": np.array(
                    action_type.ActionType.TOUCH if touch else action_type.ActionType.LIFT,
                    dtype=np.int32,
                ),
                "touch_position": position,
            }
            timestep = env.step(action)
            frame = timestep.observation["pixels"]
            changed += int(not np.array_equal(frame, last))
            last = frame
        elapsed = time.time() - started
        check(timestep.observation["pixels"].shape == pixels.shape, "100 steps, every observation full size")
        check(changed > 0, f"the taps changed the screen ({changed} of 100 observations differ)")
        print(f"     100 steps in {elapsed:.2f}s ({elapsed * 10:.0f} ms a step)", flush=True)

        # Save a state, change the phone, load the state back, all through android_env's own calls.
        adb_shell(f"am start -n {CLOCK}")
        adb_shell("settings put system screen_brightness 33")
        before = env.step({"action_type": np.array(action_type.ActionType.LIFT, dtype=np.int32),
                           "touch_position": np.array([0.5, 0.5], dtype=np.float32)}).observation["pixels"]
        saved = env.save_state(state_pb2.SaveStateRequest(args={"snapshot_name": "android_env_test"}))
        check(saved.status == state_pb2.SaveStateResponse.Status.OK, f"save_state OK ({saved.error_message})")

        adb_shell("settings put system screen_brightness 222")
        adb_shell("am start -n com.android.settings/.Settings")
        check("com.android.settings" in adb_shell("dumpsys window | grep mCurrentFocus"), "the phone changed: Settings in front")

        loaded = env.load_state(state_pb2.LoadStateRequest(args={"snapshot_name": "android_env_test"}))
        check(loaded.status == state_pb2.LoadStateResponse.Status.OK, f"load_state OK ({loaded.error_message})")
        check(adb_shell("settings get system screen_brightness").strip() == "33", "load_state restored the brightness setting")
        check(CLOCK.split("/")[0] in adb_shell("dumpsys window | grep mCurrentFocus"), "load_state restored Clock in front")
        after = env.step({"action_type": np.array(action_type.ActionType.LIFT, dtype=np.int32),
                          "touch_position": np.array([0.5, 0.5], dtype=np.float32)}).observation["pixels"]
        # The status bar's clock follows the host's time, so only the rows below it must match.
        rows = np.nonzero((before != after).any(axis=(1, 2)))[0]
        check(rows.size == 0 or rows.max() < height // 20,
              f"the screen after load_state is the saved one (differing rows: {rows.min() if rows.size else '-'}–{rows.max() if rows.size else '-'})")
        missing = env.load_state(state_pb2.LoadStateRequest(args={"snapshot_name": "no_such_snapshot"}))
        check(missing.status == state_pb2.LoadStateResponse.Status.NOT_FOUND, "load_state of an unknown snapshot is NOT_FOUND")

        # The accessibility forwarder: the wrapper enables its service and tree logs, starts its
        # A11yService server, and on reset sends SET_GRPC with its port; the phone then sends forests.
        wrapped = a11y_grpc_wrapper.A11yGrpcWrapper(
            env, install_a11y_forwarding=False, start_a11y_service=True,
            enable_a11y_tree_info=True, latest_a11y_info_only=True)
        closing = wrapped
        wrapped.reset()
        wrapped.step({"action_type": np.array(action_type.ActionType.LIFT, dtype=np.int32),
                      "touch_position": np.array([0.5, 0.5], dtype=np.float32)})
        forest = None
        for _ in range(40):
            extras = wrapped.accumulate_new_extras()
            if "accessibility_tree" in extras:
                forest = extras["accessibility_tree"][-1]
                break
            time.sleep(0.25)
        check(forest is not None, "A11yGrpcWrapper received an accessibility forest from the phone")
        xml = adb_shell("uiautomator dump --compressed /dev/tty")
        known = re.search(r'text="([^"]+)" resource-id="([^"]+)" class="([^"]+)"[^>]*'
                          r'bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', xml)
        check(known is not None, "the dump has a node with text and an id")
        if forest is not None and known is not None:
            text, rid, cls = known.group(1, 2, 3)
            box = tuple(int(v) for v in known.group(4, 5, 6, 7))
            nodes = [n for w in forest.windows for n in w.tree.nodes]
            check(any(n.text == text and n.view_id_resource_name == rid and n.class_name == cls
                      and (n.bounds_in_screen.left, n.bounds_in_screen.top, n.bounds_in_screen.right,
                           n.bounds_in_screen.bottom) == box and n.is_visible_to_user
                      for n in nodes),
                  f"the forest ({len(nodes)} nodes) has the dump's {cls} {rid} {text!r} at {box}")
    finally:
        closing.close()
        os.unlink(task_path)

    if FAILED:
        print(f"android_env: {len(FAILED)} check(s) failed: {FAILED}")
        return 1
    print("android_env: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]))
