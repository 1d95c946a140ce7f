//! Save, load, share: for every preset, the scenario the app saves as JSON,
//! loads back from that JSON, and opens from its share link is the same
//! scenario, and the simulation's results are identical (the digest of
//! every counter and per-channel value after the same cycles). The app is
//! driven through its own commands (egui_kittest, no display).
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use routelab::app::share::{decode_fragment, encode_fragment};
use routelab::app::{AppCommand, RoutelabApp, Settings, presets};
use routelab::scenario::Scenario;

/// Cycles each run is compared over (a preset's own run can be long).
const CYCLES: u64 = 600;

fn digest_of(s: &Scenario) -> routelab::sim::Digest {
    let mut sim = s.build().unwrap_or_else(|e| panic!("{}: {e}", s.name));
    sim.run_for(CYCLES).unwrap();
    sim.digest()
}

#[test]
fn every_preset_survives_save_load_and_share() {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(
            |ui, app: &mut RoutelabApp| app.show(ui),
            RoutelabApp::new(Settings::default()),
        );
    h.run_steps(2);
    let (all, problems) = presets::all();
    assert!(problems.is_empty(), "{problems:?}");
    for (i, preset) in all.iter().enumerate() {
        // Load the preset in the app.
        h.state_mut().push(AppCommand::LoadPreset(i));
        h.run_steps(2);
        let shown = h.state().session.scenario.clone();
        assert_eq!(shown, preset.scenario, "{}", preset.source);
        let reference = digest_of(&shown);
        // The app's own run is the same run.
        {
            let app = h.state_mut();
            app.session.sim.run_for(CYCLES).unwrap();
            let d = app.session.sim.digest();
            assert!(
                d == reference,
                "{}: the app's run differs: {:?}",
                preset.source,
                d.first_difference(&reference)
            );
        }
        // Save (the text File > Save writes), then load it back.
        let saved = shown.to_json();
        h.state_mut().push(AppCommand::Apply(Box::default()));
        h.run_steps(2);
        h.state_mut()
            .push(AppCommand::LoadScenarioText(saved.clone()));
        h.run_steps(2);
        let loaded = h.state().session.scenario.clone();
        assert_eq!(loaded, shown, "{}: saved and loaded", preset.source);
        let d = digest_of(&loaded);
        assert!(
            d == reference,
            "{}: after save and load: {:?}",
            preset.source,
            d.first_difference(&reference)
        );
        // Share: the link the app makes, opened.
        let link = format!("https://example.org/#{}", encode_fragment(&loaded));
        let fragment = &link[link.find('#').unwrap()..];
        let opened = decode_fragment(fragment)
            .expect("a scenario in the link")
            .unwrap_or_else(|e| panic!("{}: {e}", preset.source));
        assert_eq!(opened, shown, "{}: shared", preset.source);
        let d = digest_of(&opened);
        assert!(
            d == reference,
            "{}: after a share link: {:?}",
            preset.source,
            d.first_difference(&reference)
        );
    }
}
