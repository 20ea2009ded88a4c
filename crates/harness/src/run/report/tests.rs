use super::*;

fn row(instance: &str, attempt: u32, outcome: &str, is_final: bool) -> RunResultRow {
    RunResultRow {
        instance: instance.into(),
        task_id: instance.split('#').next().unwrap().into(),
        attempt,
        outcome: outcome.into(),
        is_final,
        success: outcome == "success",
        side_effects: "[]".into(),
        metrics: "{}".into(),
        ..RunResultRow::default()
    }
}

#[test]
fn the_final_attempt_of_each_instance_counts() {
    let rows = [
        row("a#1", 1, "errored", false),
        row("a#1", 2, "success", true),
        row("b#1", 1, "errored", false),
        row("c#1", 1, "failure", true),
    ];
    let f = finals(&rows);
    let got: Vec<_> = f
        .iter()
        .map(|r| (r.instance.as_str(), r.attempt, r.outcome.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("a#1", 2, "success"),
            ("b#1", 1, "errored"),
            ("c#1", 1, "failure")
        ]
    );
    let refs: Vec<&RunResultRow> = f.iter().collect();
    // Errored instances are out of the rate: 1 of 2 scored.
    assert_eq!(success(&refs), Rate::new(1, 2));
}

/// A report over `rows` whose tasks have the given tags and apps (no catalog needed).
fn report(rows: Vec<RunResultRow>, tasks: &[(&str, &[&str], &[&str])]) -> RunReport {
    RunReport {
        name: "t".into(),
        rows,
        tasks: tasks
            .iter()
            .map(|(id, tags, apps)| {
                let facts = TaskFacts {
                    tags: tags.iter().map(|t| t.to_string()).collect(),
                    apps: apps.iter().map(|a| a.to_string()).collect(),
                };
                (id.to_string(), facts)
            })
            .collect(),
        panel: BTreeMap::new(),
        devices: Vec::new(),
    }
}

#[test]
fn tasks_without_a_difficulty_have_a_column_and_the_columns_add_up() {
    let r = report(
        vec![
            row("aw.a#1", 1, "success", true),
            row("cross.b#1", 1, "failure", true),
            row("cross.b#2", 1, "success", true),
        ],
        &[
            (
                "aw.a",
                &["android-world", "settings", "easy"],
                &["settings"],
            ),
            ("cross.b", &["cross-app", "settings"], &["settings"]),
        ],
    );
    let md = r.markdown();
    assert!(
        md.contains("| tag | easy | medium | hard | no difficulty | all |"),
        "{md}"
    );
    assert!(
        md.contains("| settings | 100.0% [20.7, 100.0] (1/1) | - | - | 50.0% [9.5, 90.5] (1/2) | 66.7% [20.8, 93.9] (2/3) |"),
        "{md}"
    );
    let tag = &r.json()["by_tag"]["settings"];
    let n = |k: &str| tag[k]["n"].as_u64().unwrap_or(0);
    assert_eq!(
        n("easy") + n("medium") + n("hard") + n("none"),
        n("all"),
        "{tag}"
    );
}

#[test]
fn a_bmoca_run_gets_bmoca_tables_and_not_androidworlds() {
    let r = report(
        vec![
            row("bmoca.calculator.open#1", 1, "success", true),
            row("bmoca.clock.tab_alarm#1", 1, "failure", true),
            row("bmoca.clock.tab_alarm#2", 1, "success", true),
        ],
        &[
            (
                "bmoca.calculator.open",
                &["b-moca", "calculator", "easy"],
                &["calculator"],
            ),
            (
                "bmoca.clock.tab_alarm",
                &["b-moca", "clock", "easy"],
                &["clock"],
            ),
        ],
    );
    let md = r.markdown();
    assert!(!md.contains("(AndroidWorld)"), "{md}");
    for want in [
        "## Success by environment (B-MoCA)",
        "| default | 66.7% [20.8, 93.9] (2/3) |",
        "## Success by app category (B-MoCA)",
        "| Utility | 100.0% [20.7, 100.0] (1/1) |",
        "| Event | 50.0% [9.5, 90.5] (1/2) |",
        "## Success by task (B-MoCA)",
        "| bmoca.clock.tab_alarm | 50.0% [9.5, 90.5] (1/2) |",
    ] {
        assert!(md.contains(want), "{want} missing:\n{md}");
    }
    let json = r.json();
    assert!(json["by_tag"].as_object().unwrap().is_empty(), "{json}");
    assert_eq!(json["by_category"]["Event"]["k"], 1);
    assert_eq!(json["by_env"]["default"]["n"], 3);
}

#[test]
fn json_has_every_episodes_figures() {
    let mut a = row("aw.a#1", 1, "success", true);
    a.progress = Some(1.0);
    a.steps = 4;
    a.wall_ms = 2500;
    a.tokens = Some(1200);
    a.cost_usd = Some(0.01);
    a.ending = "done".into();
    a.side_effects = r#"["global airplane_mode_on: 0 → 1"]"#.into();
    a.metrics = r#"{"tr": 1.0, "tcr": 1.0, "rrr": 0.75, "matched": 0.5, "violations": []}"#.into();
    let mut b = row("aw.a#2", 1, "failure", true);
    b.ending = "out_of_steps; killed: episode over".into();
    let r = report(
        vec![a, b],
        &[("aw.a", &["settings", "easy"], &["settings"])],
    );
    let json = r.json();
    let episodes = json["episodes"].as_array().unwrap();
    assert_eq!(episodes.len(), 2);
    let e = &episodes[0];
    assert_eq!(
        (
            &e["progress"],
            &e["steps"],
            &e["runtime_ms"],
            &e["tokens"],
            &e["cost_usd"]
        ),
        (
            &json!(1.0),
            &json!(4),
            &json!(2500),
            &json!(1200),
            &json!(0.01)
        )
    );
    assert_eq!(e["side_effects"], json!(["global airplane_mode_on: 0 → 1"]));
    assert_eq!(
        e["trajectory"],
        json!({"task_reward": 1.0, "completion_ratio": 1.0, "reversed_redundancy": 0.75,
               "reference_matched": 0.5})
    );
    // The second's agent reported no usage: unknown, not 0, for it and for the sums.
    assert_eq!(
        (&episodes[1]["tokens"], &episodes[1]["cost_usd"]),
        (&Value::Null, &Value::Null)
    );
    assert_eq!(episodes[1]["ending"], "out_of_steps; killed: episode over");
    assert_eq!(
        (&json["tokens"], &json["cost_usd"]),
        (&Value::Null, &Value::Null)
    );
    assert_eq!(json["mean_steps"], json!(2.0));
    assert_eq!(json["side_effects"]["k"], 1);
    assert_eq!(json["trajectory"]["reversed_redundancy"], json!(0.75));
}

#[test]
fn unknown_tokens_and_cost_read_unknown() {
    let r = report(vec![row("aw.a#1", 1, "failure", true)], &[]);
    let md = r.markdown();
    assert!(
        md.contains("| tokens | unknown (an agent command reports none) |"),
        "{md}"
    );
    assert!(
        md.contains("| cost (USD) | unknown (an agent command reports none) |"),
        "{md}"
    );
    let csv = r.csv();
    assert!(csv.lines().nth(1).unwrap().contains(",,0,0,,,0,"), "{csv}");
    let mut known = row("aw.a#1", 1, "failure", true);
    known.tokens = Some(0);
    known.cost_usd = Some(0.0);
    let md = report(vec![known], &[]).markdown();
    assert!(
        md.contains("| tokens | 0 |") && md.contains("| cost (USD) | 0.0000 |"),
        "{md}"
    );
}

#[test]
fn the_plot_has_a_labelled_axis_and_scale() {
    let r = report(
        vec![
            row("aw.a#1", 1, "success", true),
            row("aw.a#2", 1, "failure", true),
        ],
        &[("aw.a", &["settings", "easy"], &["settings"])],
    );
    let svg = r.svg();
    for tick in ["0%", "20%", "40%", "60%", "80%", "100%"] {
        assert!(
            svg.contains(&format!(">{tick}</text>")),
            "{tick} missing:\n{svg}"
        );
    }
    assert!(svg.contains(">success rate (%)</text>"), "{svg}");
    assert!(svg.contains("95% Wilson interval"), "{svg}");
    assert!(
        svg.contains(">tag settings</text>") && svg.contains(">50% (1/2)</text>"),
        "{svg}"
    );
}
