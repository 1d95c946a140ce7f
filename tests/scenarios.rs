//! Every ready-made scenario in `assets/scenarios/` loads, names itself and
//! runs.

#[test]
fn every_preset_loads_and_runs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenarios");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let s = routelab::scenario::Scenario::from_json(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!s.name.is_empty(), "{}: no name", path.display());
        assert!(
            !s.description.is_empty(),
            "{}: no description",
            path.display()
        );
        let mut sim = s
            .build()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        sim.run_for(200)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // The preset's contrast (the app's C key) builds on its network.
        if let Some(c) = &s.compare_with {
            routelab::scenario::Scenario {
                routing: c.clone(),
                ..s.clone()
            }
            .build()
            .unwrap_or_else(|e| panic!("{}: compare_with `{c}`: {e}", path.display()));
        }
        count += 1;
    }
    assert!(count >= 9, "only {count} presets");
}
