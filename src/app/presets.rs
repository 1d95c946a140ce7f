//! Ready-made scenarios for the Presets menu: the JSON files in
//! `assets/scenarios/` (each with `name` and `description`), compiled into
//! the binary so the desktop and the web build offer the same list.

use crate::scenario::Scenario;

/// Every file of `assets/scenarios/`, compiled in so that the web build and
/// a bare binary have them too (a test checks that none is missing).
pub const BUILT_IN: &[(&str, &str)] = &[
    (
        "adaptive-torus8-transpose.json",
        include_str!("../../assets/scenarios/adaptive-torus8-transpose.json"),
    ),
    (
        "dragonfly-a-min-uniform.json",
        include_str!("../../assets/scenarios/dragonfly-a-min-uniform.json"),
    ),
    (
        "dragonfly-b-min-worst.json",
        include_str!("../../assets/scenarios/dragonfly-b-min-worst.json"),
    ),
    (
        "dragonfly-c-ugal-l-worst.json",
        include_str!("../../assets/scenarios/dragonfly-c-ugal-l-worst.json"),
    ),
    (
        "dragonfly-d-ugal-g-worst.json",
        include_str!("../../assets/scenarios/dragonfly-d-ugal-g-worst.json"),
    ),
    (
        "dragonfly-e-par-vs-ugal-l.json",
        include_str!("../../assets/scenarios/dragonfly-e-par-vs-ugal-l.json"),
    ),
    (
        "drb-hypercube4-butterfly.json",
        include_str!("../../assets/scenarios/drb-hypercube4-butterfly.json"),
    ),
    (
        "drb-hypercube6-bitrev.json",
        include_str!("../../assets/scenarios/drb-hypercube6-bitrev.json"),
    ),
    (
        "drb-hypercube8-transpose.json",
        include_str!("../../assets/scenarios/drb-hypercube8-transpose.json"),
    ),
    (
        "drb-midimew64-shuffle.json",
        include_str!("../../assets/scenarios/drb-midimew64-shuffle.json"),
    ),
    (
        "drb-torus16-shuffle.json",
        include_str!("../../assets/scenarios/drb-torus16-shuffle.json"),
    ),
    (
        "drb-torus4-bitrev.json",
        include_str!("../../assets/scenarios/drb-torus4-bitrev.json"),
    ),
    (
        "drb-torus8-hotspot.json",
        include_str!("../../assets/scenarios/drb-torus8-hotspot.json"),
    ),
    (
        "drb-torus8-transpose-3flit.json",
        include_str!("../../assets/scenarios/drb-torus8-transpose-3flit.json"),
    ),
    (
        "drb-torus8-transpose.json",
        include_str!("../../assets/scenarios/drb-torus8-transpose.json"),
    ),
    (
        "fattree-dmodk-uniform.json",
        include_str!("../../assets/scenarios/fattree-dmodk-uniform.json"),
    ),
    (
        "fattree-greedy.json",
        include_str!("../../assets/scenarios/fattree-greedy.json"),
    ),
    (
        "fattree16-greedy.json",
        include_str!("../../assets/scenarios/fattree16-greedy.json"),
    ),
    (
        "fattree8-greedy.json",
        include_str!("../../assets/scenarios/fattree8-greedy.json"),
    ),
    (
        "hypercube-ecube-bitcomp.json",
        include_str!("../../assets/scenarios/hypercube-ecube-bitcomp.json"),
    ),
    (
        "irregular-updown-uniform.json",
        include_str!("../../assets/scenarios/irregular-updown-uniform.json"),
    ),
    (
        "mesh-dor-uniform.json",
        include_str!("../../assets/scenarios/mesh-dor-uniform.json"),
    ),
    (
        "midimew-uniform.json",
        include_str!("../../assets/scenarios/midimew-uniform.json"),
    ),
    (
        "oblivious-a-ring8-tornado.json",
        include_str!("../../assets/scenarios/oblivious-a-ring8-tornado.json"),
    ),
    (
        "oblivious-b-ring8-nn.json",
        include_str!("../../assets/scenarios/oblivious-b-ring8-nn.json"),
    ),
    (
        "oblivious-c-torus8-tornado.json",
        include_str!("../../assets/scenarios/oblivious-c-torus8-tornado.json"),
    ),
    (
        "oblivious-d-torus8-transpose.json",
        include_str!("../../assets/scenarios/oblivious-d-torus8-transpose.json"),
    ),
    (
        "oblivious-e-torus8-worst-dor.json",
        include_str!("../../assets/scenarios/oblivious-e-torus8-worst-dor.json"),
    ),
    (
        "oblivious-f-torus8-worst-rdor.json",
        include_str!("../../assets/scenarios/oblivious-f-torus8-worst-rdor.json"),
    ),
    (
        "oblivious-g-torus8-worst-val.json",
        include_str!("../../assets/scenarios/oblivious-g-torus8-worst-val.json"),
    ),
    (
        "oblivious-h-torus8-worst-romm.json",
        include_str!("../../assets/scenarios/oblivious-h-torus8-worst-romm.json"),
    ),
    (
        "oblivious-i-torus8-worst-rlb.json",
        include_str!("../../assets/scenarios/oblivious-i-torus8-worst-rlb.json"),
    ),
    (
        "oblivious-j-torus8-worst-rlbth.json",
        include_str!("../../assets/scenarios/oblivious-j-torus8-worst-rlbth.json"),
    ),
    (
        "paths-fabric-fattree-ibnetdiscover.json",
        include_str!("../../assets/scenarios/paths-fabric-fattree-ibnetdiscover.json"),
    ),
    (
        "paths-fabric-irregular-ibnetdiscover.json",
        include_str!("../../assets/scenarios/paths-fabric-irregular-ibnetdiscover.json"),
    ),
    (
        "paths-irregular-16-sa.json",
        include_str!("../../assets/scenarios/paths-irregular-16-sa.json"),
    ),
    (
        "paths-irregular-16-udwm.json",
        include_str!("../../assets/scenarios/paths-irregular-16-udwm.json"),
    ),
    (
        "paths-irregular-16.json",
        include_str!("../../assets/scenarios/paths-irregular-16.json"),
    ),
    (
        "paths-irregular-32.json",
        include_str!("../../assets/scenarios/paths-irregular-32.json"),
    ),
    (
        "paths-irregular-64.json",
        include_str!("../../assets/scenarios/paths-irregular-64.json"),
    ),
    (
        "paths-irregular-8.json",
        include_str!("../../assets/scenarios/paths-irregular-8.json"),
    ),
    (
        "paths-torus-udwm-5vc.json",
        include_str!("../../assets/scenarios/paths-torus-udwm-5vc.json"),
    ),
    (
        "paths-torus-updown-1vc.json",
        include_str!("../../assets/scenarios/paths-torus-updown-1vc.json"),
    ),
    (
        "paths-torus-updown-5vc.json",
        include_str!("../../assets/scenarios/paths-torus-updown-5vc.json"),
    ),
    (
        "torus-dor-tornado.json",
        include_str!("../../assets/scenarios/torus-dor-tornado.json"),
    ),
    (
        "torus-dor-transpose.json",
        include_str!("../../assets/scenarios/torus-dor-transpose.json"),
    ),
    (
        "torus-dor-uniform.json",
        include_str!("../../assets/scenarios/torus-dor-uniform.json"),
    ),
    (
        "torus16-dor-uniform.json",
        include_str!("../../assets/scenarios/torus16-dor-uniform.json"),
    ),
];

/// File-name prefix of the oblivious-routing presets, listed in their own
/// submenu ([`OBLIVIOUS_GROUP`]); loading one opens the oblivious panel.
pub const OBLIVIOUS_PREFIX: &str = "oblivious-";
/// The submenu holding them.
pub const OBLIVIOUS_GROUP: &str = "Oblivious routing (ring and torus)";

/// A submenu of the Presets menu: the presets of one paper, or the first
/// steps, with a line in plain words saying what they show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    pub title: &'static str,
    pub about: &'static str,
    /// File-name prefixes of its presets (none: every preset no other
    /// group takes).
    pub prefixes: &'static [&'static str],
}

/// The Presets menu's submenus, in order.
pub const GROUPS: &[Group] = &[
    Group {
        title: "First steps: one network, one routing",
        about: "Tori, meshes, a hypercube and a midimew under their usual routing: how load turns into latency, and how traffic alone can make a hot spot.",
        prefixes: &[],
    },
    Group {
        title: "Static path selection (Villalobos; Koibuchi)",
        about: "Routing tables on irregular networks and tori: which one path each pair keeps, and how that choice piles paths onto a few channels or spreads them.",
        prefixes: &["paths-"],
    },
    Group {
        title: OBLIVIOUS_GROUP,
        about: "Random path choices that ignore the network's state (Singh): minimal routing keeps paths short, Valiant spreads any traffic, RLB tries for both.",
        prefixes: &[OBLIVIOUS_PREFIX],
    },
    Group {
        title: "Distributed Routing Balancing (Franco et al.)",
        about: "Paths that widen only where measured latency asks for it, beside static and adaptive routing: the per-node latency surface flattens.",
        prefixes: &["drb-", "adaptive-"],
    },
    Group {
        title: "Dragonfly: why adaptive routing (Kim et al.; Jiang et al.)",
        about: "Groups of routers joined by one global channel a pair: minimal routing is best under uniform traffic and lights one channel under the worst case; UGAL and PAR choose per packet between it and Valiant's detour.",
        prefixes: &["dragonfly-"],
    },
    Group {
        title: "Fat-tree multipath balancing",
        about: "Datacenter fat trees with unlike switches: the greedy weighted-path balancer step by step, beside ECMP, D-mod-k and DRILL.",
        prefixes: &["fattree"],
    },
];

/// The group a preset file belongs to.
pub fn group_of(source: &str) -> &'static Group {
    GROUPS
        .iter()
        .find(|g| g.prefixes.iter().any(|p| source.starts_with(p)))
        .unwrap_or(&GROUPS[0])
}

/// A preset and where it came from.
#[derive(Clone, Debug)]
pub struct Preset {
    pub scenario: Scenario,
    /// File name under `assets/scenarios/`.
    pub source: String,
}

/// All presets, in file-name order. A file that does not parse (a build
/// with a broken asset) is skipped and named in the returned problems.
pub fn all() -> (Vec<Preset>, Vec<String>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (file, text) in BUILT_IN {
        match Scenario::from_json(text) {
            Ok(scenario) => out.push(Preset {
                scenario,
                source: (*file).to_string(),
            }),
            Err(e) => problems.push(format!("{file}: {e}")),
        }
    }
    (out, problems)
}

/// Two spellings of one routing (`dor` and `dor:tie=plus`) are no edit:
/// the first tour set `dor` on the DOR preset and its heading said
/// "edited: routing dor (was dor:tie=plus)" over a Routing field showing
/// `dor:tie=plus`.
fn same_routing(key: &str, a: &serde_json::Value, b: Option<&serde_json::Value>) -> bool {
    let spec = |v: &serde_json::Value| {
        v.as_str()
            .and_then(|t| t.parse::<crate::routing::RoutingSpec>().ok())
            .map(|r| r.to_string())
    };
    key == "routing" && b.is_some_and(|b| spec(a).is_some() && spec(a) == spec(b))
}

/// A scenario that carries a preset's name but differs from it in what it
/// runs (a field edited in the scenario panel, a tour's `set`) is renamed
/// "NAME (edited)" and its description says what changed, so the heading
/// never describes another experiment (the stage issue: "Torus 8x8, DOR,
/// tornado" over uniform traffic, also after a relaunch).
pub fn retitle(mut s: Scenario, presets: &[Preset]) -> Scenario {
    let base = s
        .name
        .strip_suffix(" (edited)")
        .unwrap_or(&s.name)
        .to_string();
    let Some(p) = presets.iter().find(|p| p.scenario.name == base) else {
        return s;
    };
    let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) =
        (serde_json::to_value(&s), serde_json::to_value(&p.scenario))
    else {
        return s;
    };
    let changed: Vec<String> = a
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "name" | "description" | "compare_with"))
        .filter(|(k, v)| b.get(*k) != Some(*v) && !same_routing(k, v, b.get(*k)))
        .map(|(k, v)| match b.get(k) {
            Some(old) => format!("{k} {} (was {})", short(v), short(old)),
            None => format!("{k} {}", short(v)),
        })
        .collect();
    if changed.is_empty() {
        // Edited back to the preset: its own title again.
        s.name = p.scenario.name.clone();
        s.description = p.scenario.description.clone();
        return s;
    }
    s.name = format!("{} (edited)", p.scenario.name);
    s.description = format!("Edited from the preset: {}.", changed.join(", "));
    s.compare_with = None;
    s
}

/// A JSON value as one short phrase (strings without quotes).
fn short(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(t) => t.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_scenario_file_is_compiled_in() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenarios");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|f| f.ends_with(".json"))
            .collect();
        files.sort();
        let listed: Vec<String> = super::BUILT_IN.iter().map(|(f, _)| f.to_string()).collect();
        assert_eq!(
            files, listed,
            "list every assets/scenarios file in BUILT_IN"
        );
    }

    #[test]
    fn built_in_presets_all_build() {
        for (file, text) in super::BUILT_IN {
            let s = crate::scenario::Scenario::from_json(text)
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            assert!(!s.name.is_empty() && !s.description.is_empty());
            s.prepare().unwrap_or_else(|e| panic!("{}: {e}", s.name));
        }
    }
}
