//! The one integration-test binary; each module tests one area through its public boundary.

mod util;

// Device commands under a timeout, an output cap and cancellation; inconclusive checks.
mod bounds;

// ADB: the embedded adbd with scripted bytes, and real Debian adb + our client.
mod adb;

// The binary as a newcomer runs it: report over goldens, manual verbs in sequence, --detach, pipes.
mod cli;

// README and docs against the binary: command lines, task counts, profiles, page names.
mod docs;

// The workspace's crates depend only on lower layers.
mod layers;

// Device environments: B-MoCA's 45 and random ones, goldens across them, the report by factor.
mod envs;

// The emulator gRPC controller (EmulatorController, SnapshotService) over the embedded phone.
mod grpc;

// android_env's accessibility forwarder: SET_GRPC makes the phone send forests to an A11yService.
mod a11y_forwarder;

// The device layer over the embedded phone: actions, typing, observation.
mod device;

// Constrained tasks: violations named by step, detours, the violation ratio in reports.
mod constraints;

// Evaluators over real Android output formats and real SQLite files.
mod eval;

// uiautomator dumps: parse, compress, select, mark, diff.
mod hierarchy;

// LLM judges against a scripted OpenAI-compatible server.
mod judge;

// Judges' evidence holds what decides: an evidence-only judge agrees with the rules.
mod judge_evidence;

// The frames judges see: actions drawn on the frame before each step, decoding to the phone's screen.
mod judge_frames;

// `droidmcp run`: reference and command agents over the suite on several phones, resume, errors.
mod oracle_model;
mod run;

// Reference agents against a stand-in refusing what OpenAI refuses: reasoning models at default
// flags, M3A's two screenshots and summaries, sliders set by value.
mod agents;

// The MCP server in-process: tools, errors, fuzz-style calls.
mod mcp;

// What belongs to the phone, not the session: shared digests and step log, fresh focus, sliders.
mod phone_state;

// `droidmcp serve` as a process: the embedded phone's folder is removed however it ends.
mod phone_folders;

// The embedded phone's framework and shell, driven only through exec.
mod sim;

// toybox, mksh and the tools AndroidWorld's task code drives: find, ls -ll, globs, root, dumpsys
// input, content delete, pm clear of a provider.
mod sim_toybox;

// grep -m, ls -R, md5sum/sha1sum/sha256sum and stat on the embedded phone.
mod sim_toybox_tools;

// Clock, Calculator and Calendar of the embedded phone.
mod sim_utility_apps;

// Phone, Contacts, Messages and the content providers of the embedded phone.
mod sim_communication_apps;

// Contacts, Phone, Messages and Calendar in B-MoCA's languages; goldens that survive them.
mod app_locales;

// System UI through the shell: clipboard and text selection, the notification shade.
mod sim_system_ui;

// AndroidWorld's sideloaded apps: Simple SMS Messenger and Clipper.
mod sim_sideloaded_apps;

// Simple Calendar Pro: events.db as AndroidWorld reads it, month/day/list views, editor, delete, search.
mod sim_simple_calendar;

// Pro Expense: set-up pages, pm clear, the entry form, detail and multi-select delete over accounting.db.
mod sim_expense;

// Broccoli: the same records machinery over its recipes table.
mod sim_broccoli;

// AndroidWorld's information-retrieval apps (Tasks): its rows on screen, scrolling, pm clear.
mod sim_ir_apps;

// Markor: notes as files under Documents/Markor, seen and changed over adb as in the app.
mod sim_markor;

// Files (DocumentsUI): folders, selection, MediaStore, and the drawer's roots.
mod sim_files;

// Simple Gallery Pro and Simple Draw Pro: pictures on screen and in files.
mod sim_pictures;
// OsmAnd: favourites, markers and tracks where AndroidWorld reads them.
mod sim_osmand;
// Chrome's local pages: opened from Files, read, tapped, swiped and typed into.
mod sim_chrome_pages;
// Chrome's tabs, tab switcher and History page.
mod sim_chrome;

// The default SMS app is a role: `cmd role`, the request dialog, deliveries to the holder.
mod sim_sms_role;

// The renderer behind screencap, Settings and the launcher.
mod sim_render;

// The embedded phone's clock: virtual and real time, timers and alarms.
mod sim_time;

// Whole-phone snapshots: `avd snapshot save|load|list|delete` and the same on `Phone`.
mod sim_snapshot;

// Camera (AOSP Camera2): AndroidWorld's launch, the app drawer, the viewfinder, the photos.
mod sim_camera;

// Calls and texts that arrive: the emulator console, the Dialer's incoming screen, the providers.
mod sim_telephony;

// An incoming call as Android 14 shows it: InCallUI's heads-up, its full-screen intent, the shade.
mod sim_call_notification;

// MediaStore over `content`: collections in step with shared storage, deletes that remove files.
mod sim_media;

// Settings as an agent meets it: the Android 14 homepage, About phone, search, Display.
mod sim_settings;

// Every episode starts from the boot snapshot; a second episode aborts the first.
mod episode_reset;

// Verdicts a capable agent can trust: data on the task's clock, outcomes not paths, wrong fails.
mod verdicts;

// Task files, golden replays, wrong trajectories, episodes.
mod tasks;

// Trajectory metrics by coordinates, element ids and text through the one action path.
mod trajectory;

// The live page's server side: change feed, phone REST routes, OpenAPI, guard.
mod web;

// `serve --http` as a process: the agent's and the harness's doors, sessions nobody can hog.
mod serve;

// Faults a served phone survives: no adb server started for a client, oversized arguments, the
// phone's sqlite3 kept in its folder.
mod faults;

// Every cargo-fuzz target's body over its seed corpus and fixed mutants, on stable.
mod fuzz_replay;

// Audio Recorder and Camera2's video mode: recordings decoded (MP4 boxes, AAC config, H.264 SPS).
mod sim_recorders;
