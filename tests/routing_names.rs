//! One name per routing (the classroom issue's "a routing should have one
//! name everywhere"). The name a built routing goes by (`Routing::name`,
//! what the title, legend, status bar and exports print) is what the app's
//! Routing field shows after a scenario is applied, so it must stand for
//! the same routing: parsed back and built, it gives the same name and the
//! same results. Checked for every registered routing's examples on the
//! networks they apply to (a routing added later joins by being
//! registered), and the presets must already use those names, so that
//! loading one changes nothing in its scenario.

use routelab::routing::registry::KINDS;
use routelab::scenario::Scenario;
use routelab::sim::SwitchModelKind;

const CYCLES: u64 = 300;

const TOPOLOGIES: &[&str] = &[
    "torus:4x4",
    "torus:8",
    "mesh:4x4",
    "hypercube:4",
    "midimew:13",
    "fattree:4",
    "irregular:8:seed=2",
    "dragonfly:p=1",
];

fn scenario(topology: &str, routing: &str, model: SwitchModelKind) -> Scenario {
    Scenario {
        topology: topology.into(),
        routing: routing.into(),
        switch_model: model,
        vcs: 12,
        load: 0.2,
        ..Scenario::default()
    }
}

/// Build, run `CYCLES` cycles, and give the routing's name and the digest.
fn run(s: &Scenario) -> Result<(String, routelab::sim::Digest), String> {
    let mut sim = s.build().map_err(|e| e.to_string())?;
    sim.run_for(CYCLES).map_err(|e| e.to_string())?;
    Ok((sim.routing_name(), sim.digest()))
}

#[test]
fn a_built_routing_name_stands_for_the_same_routing() {
    let mut checked = 0;
    for kind in KINDS {
        for example in kind.examples {
            // Path searches with large budgets are slow and their names
            // carry the budget; the small networks keep them short.
            for topology in TOPOLOGIES {
                for &model in SwitchModelKind::ALL {
                    let s = scenario(topology, example, model);
                    let Ok((name, digest)) = run(&s) else {
                        continue; // does not apply here
                    };
                    let again = scenario(topology, &name, model);
                    let (name2, digest2) = run(&again).unwrap_or_else(|e| {
                        panic!("{example} on {topology}: its name `{name}` does not build: {e}")
                    });
                    assert_eq!(name2, name, "{example} on {topology}");
                    assert!(
                        digest2 == digest,
                        "{example} on {topology}: `{name}` runs differently: {:?}",
                        digest2.first_difference(&digest)
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(
        checked >= 40,
        "only {checked} routing/network pairs checked"
    );
}

#[test]
fn every_preset_uses_its_routing_name() {
    let mut n = 0;
    for entry in
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/scenarios")).unwrap()
    {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let s = Scenario::from_json(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let sim = s
            .build()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            s.routing,
            sim.routing_name(),
            "{}: the preset should name its routing as the app will show it",
            path.display()
        );
        n += 1;
    }
    assert!(n >= 30, "only {n} presets");
}
