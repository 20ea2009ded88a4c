//! More of the embedded phone's toybox, byte for byte against toybox's sources: `grep -m` with
//! `-c`/`-o`/`-n`/`-v` over several files, `ls -R`, the hash tools and `stat`.

use droidmcp::sim::Phone;

use crate::util::{boot, sh};

/// /sdcard/g/a.txt and b.txt, five and two lines.
fn texts(phone: &Phone) {
    sh(
        phone,
        "mkdir -p /sdcard/g && echo -e 'apple\\nbanana\\napricot\\ncherry\\navocado' > /sdcard/g/a.txt && echo -e 'ant\\nbee' > /sdcard/g/b.txt",
    );
}

#[test]
fn grep_max_count_stops_each_file_at_n_lines() {
    let phone = boot(0);
    texts(&phone);
    let g = |line: &str| {
        sh(
            &phone,
            &line
                .replace("a.txt", "/sdcard/g/a.txt")
                .replace("b.txt", "/sdcard/g/b.txt"),
        )
    };
    assert_eq!(g("grep -m 2 a a.txt"), "apple\nbanana\n");
    assert_eq!(g("grep -m2 -n '^a' a.txt"), "1:apple\n3:apricot\n");
    assert_eq!(g("grep -c -m 2 '^a' a.txt"), "2\n");
    assert_eq!(g("grep -cm 9 '^a' a.txt"), "3\n");
    // -o prints every match on the counted lines; -v counts the lines that do not match.
    assert_eq!(g("grep -o -m 1 a a.txt"), "a\n");
    assert_eq!(g("grep -o -m 2 an a.txt"), "an\nan\n");
    assert_eq!(g("grep -v -m 1 '^a' a.txt"), "banana\n");
    assert_eq!(g("grep -vn -m 2 '^a' a.txt"), "2:banana\n4:cherry\n");
    // -o -v prints the text between matches, as toybox walks the line.
    assert_eq!(
        g("grep -o -v an a.txt"),
        "apple\nb\na\napricot\ncherry\navocado\n"
    );
    // Several files: names prefix each line, and the cap is per file.
    assert_eq!(
        g("grep -m 1 -n a a.txt b.txt"),
        "/sdcard/g/a.txt:1:apple\n/sdcard/g/b.txt:1:ant\n"
    );
    assert_eq!(
        g("grep -c -m 2 a a.txt b.txt"),
        "/sdcard/g/a.txt:2\n/sdcard/g/b.txt:1\n"
    );
    assert_eq!(g("grep -h -m 1 a a.txt b.txt"), "apple\nant\n");
    assert_eq!(g("cat b.txt | grep -H -m 1 e"), "(standard input):bee\n");
    assert_eq!(
        g("cat b.txt | grep -c e - a.txt"),
        "(standard input):1\n/sdcard/g/a.txt:2\n"
    );
    // toybox checks the cap after reading a line, so -m 0 still reads the first one.
    assert_eq!(g("grep -m 0 apple a.txt"), "apple\n");
    assert_eq!(g("grep -q -m 1 cherry a.txt && echo yes"), "yes\n");
}

#[test]
fn grep_errors_and_exit_codes_are_toyboxs() {
    let phone = boot(0);
    texts(&phone);
    let out = phone.exec("grep -m 1 a /sdcard/g/missing.txt /sdcard/g/a.txt");
    assert_eq!(
        (out.stdout_text(), out.stderr_text(), out.exit_code),
        (
            "/sdcard/g/a.txt:apple\n".to_string(),
            "grep: /sdcard/g/missing.txt: No such file or directory\n".to_string(),
            2
        )
    );
    let out = phone.exec("grep -m");
    assert_eq!(
        (out.stderr_text(), out.exit_code),
        (
            "grep: Missing argument to -m (see \"grep --help\")\n".to_string(),
            2
        )
    );
    let out = phone.exec("grep -m x a /sdcard/g/a.txt");
    assert_eq!(
        (out.stderr_text(), out.exit_code),
        ("grep: not integer: x\n".to_string(), 2)
    );
    let out = phone.exec("grep -c zebra /sdcard/g/a.txt");
    assert_eq!((out.stdout_text(), out.exit_code), ("0\n".to_string(), 1));
}

#[test]
fn ls_recursive_heads_each_directory_after_its_parent() {
    let phone = boot(0);
    crate::sim_toybox::tree(&phone);
    let tree = "/sdcard/t:\na\nc.log\ne\n\n/sdcard/t/a:\n1.txt\nb\n\n/sdcard/t/a/b:\n2.txt\n\n/sdcard/t/e:\n";
    assert_eq!(sh(&phone, "ls -R /sdcard/t"), tree);
    // A trailing slash on the operand is dropped from the headings.
    assert_eq!(sh(&phone, "ls -R /sdcard/t/"), tree);
    assert_eq!(
        sh(&phone, "ls /sdcard/t/a -R"),
        "/sdcard/t/a:\n1.txt\nb\n\n/sdcard/t/a/b:\n2.txt\n"
    );
    // A file operand is listed first, then each directory's tree.
    assert_eq!(
        sh(&phone, "ls -R /sdcard/t/c.log /sdcard/t/a"),
        "/sdcard/t/c.log\n\n/sdcard/t/a:\n1.txt\nb\n\n/sdcard/t/a/b:\n2.txt\n"
    );
    // -d switches -R off; -a lists . and .. without descending into them.
    assert_eq!(sh(&phone, "ls -Rd /sdcard/t"), "/sdcard/t\n");
    assert_eq!(
        sh(&phone, "ls -Ra /sdcard/t/a"),
        "/sdcard/t/a:\n.\n..\n1.txt\nb\n\n/sdcard/t/a/b:\n.\n..\n2.txt\n"
    );
    let long = sh(&phone, "ls -lR /sdcard/t/a");
    let lines: Vec<&str> = long.lines().collect();
    assert_eq!(lines[0], "/sdcard/t/a:");
    assert_eq!(lines[1], "total 8");
    assert!(lines.contains(&"/sdcard/t/a/b:"), "{long}");
    assert_eq!(lines[lines.len() - 2], "total 0");
}

#[test]
fn hash_tools_print_hash_two_spaces_and_name() {
    let phone = boot(0);
    sh(&phone, "echo hi > /sdcard/h.txt");
    assert_eq!(
        sh(&phone, "md5sum /sdcard/h.txt"),
        "764efa883dda1e11db47671c4a3bbd9e  /sdcard/h.txt\n"
    );
    assert_eq!(
        sh(&phone, "sha1sum /sdcard/h.txt"),
        "55ca6286e3e4f4fba5d0448333fa99fc5a404a73  /sdcard/h.txt\n"
    );
    assert_eq!(
        sh(&phone, "sha256sum /sdcard/h.txt"),
        "98ea6e4f216f2fb4b69fff9b3a44842c38686ca685f3f55dc48c5d3fb1107be4  /sdcard/h.txt\n"
    );
    assert_eq!(
        sh(&phone, "md5sum < /dev/null"),
        "d41d8cd98f00b204e9800998ecf8427e  -\n"
    );
    assert_eq!(
        sh(&phone, "md5sum -b /sdcard/h.txt"),
        "764efa883dda1e11db47671c4a3bbd9e\n"
    );
    let out = phone.exec("md5sum /sdcard/nope /sdcard/h.txt");
    assert_eq!(
        (out.stdout_text(), out.stderr_text(), out.exit_code),
        (
            "764efa883dda1e11db47671c4a3bbd9e  /sdcard/h.txt\n".to_string(),
            "md5sum: /sdcard/nope: No such file or directory\n".to_string(),
            1
        )
    );
    sh(
        &phone,
        "md5sum /sdcard/h.txt > /sdcard/sums && echo x > /sdcard/x.txt",
    );
    assert_eq!(sh(&phone, "md5sum -c /sdcard/sums"), "/sdcard/h.txt: OK\n");
    sh(&phone, "echo changed > /sdcard/h.txt");
    let out = phone.exec("md5sum -c /sdcard/sums");
    assert_eq!(
        (out.stdout_text(), out.exit_code),
        ("/sdcard/h.txt: FAILED\n".to_string(), 1)
    );
}

#[test]
fn stat_default_report_and_formats_are_toyboxs() {
    let phone = boot(0);
    sh(
        &phone,
        "mkdir -p /sdcard/s && echo hello > /sdcard/s/f.txt && touch /sdcard/s/empty",
    );
    assert_eq!(
        sh(
            &phone,
            "stat -c '%n %s %a %A %F %U %G' /sdcard/s/f.txt /sdcard/s /sdcard/s/empty"
        ),
        "/sdcard/s/f.txt 6 660 -rw-rw---- regular file root sdcard_rw\n\
         /sdcard/s 4096 771 drwxrwx--x directory root sdcard_rw\n\
         /sdcard/s/empty 0 660 -rw-rw---- regular empty file root sdcard_rw\n"
    );
    // Times are the phone's clock, the same ones `ls --full-time` shows.
    let ls = sh(&phone, "ls -ll /sdcard/s/f.txt");
    let y = sh(&phone, "stat -c %y /sdcard/s/f.txt");
    assert!(ls.contains(y.trim_end()), "{ls} vs {y}");
    let seconds: i64 = sh(&phone, "stat -c %Y /sdcard/s/f.txt")
        .trim()
        .parse()
        .unwrap();
    assert_eq!(sh(&phone, "date +%s").trim(), seconds.to_string());
    assert_eq!(
        sh(&phone, "stat -c '%04a|%-5s|%5s|%%' /sdcard/s/f.txt"),
        "0660|6    |    6|%\n"
    );
    let report = sh(&phone, "stat /sdcard/s/f.txt");
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 7, "{report}");
    assert_eq!(lines[0], "  File: /sdcard/s/f.txt");
    assert_eq!(
        lines[1],
        "  Size: 6\t Blocks: 8\t IO Blocks: 512\t regular file"
    );
    assert!(
        lines[2].starts_with("Device: 35h/53d\t Inode: "),
        "{}",
        lines[2]
    );
    assert!(
        lines[2].ends_with("\t Links: 1\t Device type: 0,0"),
        "{}",
        lines[2]
    );
    assert_eq!(
        lines[3],
        "Access: (0660/-rw-rw----)\tUid: (    0/    root)\tGid: ( 1015/sdcard_rw)"
    );
    assert_eq!(lines[4], format!("Access: {}", y.trim_end()));
    assert_eq!(lines[5], format!("Modify: {}", y.trim_end()));
    let out = phone.exec("stat /sdcard/s/none");
    assert_eq!(
        (out.stderr_text(), out.exit_code),
        (
            "stat: '/sdcard/s/none': No such file or directory\n".to_string(),
            1
        )
    );
    let out = phone.exec("stat");
    assert_eq!(
        (out.stderr_text(), out.exit_code),
        (
            "stat: Needs 1 argument (see \"stat --help\")\n".to_string(),
            1
        )
    );
}
