//! Editing a scenario: every parameter the core takes, validated as you
//! type; nothing changes until "Apply".

use super::app_command::AppCommand;
use crate::routing::Selection;
use crate::scenario::Scenario;
use crate::sim::{PortPriority, SwitchModelKind, Switching};
use crate::topology::registry;
use crate::traffic::{self, Process};

/// What moves packets between buffers: every registered switch model with
/// its summary (the switch-model list's hover text).
fn switch_model_hover() -> String {
    let models: Vec<String> = SwitchModelKind::ALL
        .iter()
        .map(|m| format!("{m} = {}", m.entry().summary))
        .collect();
    format!("What moves packets between buffers: {}", models.join("; "))
}

/// `word` with its first letter in upper case.
fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Routing (balancer) specs that fit a topology spec on the given switch
/// model (the fat-tree balancers only on the time-slice model, which takes
/// fat trees only).
pub fn routing_choices(topology: &str, model: SwitchModelKind) -> Vec<String> {
    thread_local! {
        static CACHE: std::cell::RefCell<(String, SwitchModelKind, Vec<String>)> =
            Default::default();
    }
    if let Some(hit) = CACHE.with(|c| {
        let c = c.borrow();
        (c.0 == topology && c.1 == model).then(|| c.2.clone())
    }) {
        return hit;
    }
    // Every registered routing's examples that apply to this network and
    // go with this switch model.
    let choices: Vec<String> = match crate::topology::Network::from_spec(topology) {
        Ok(net) => crate::routing::registry::KINDS
            .iter()
            .flat_map(|k| k.examples.iter())
            .filter(|e| {
                e.parse::<crate::routing::RoutingSpec>()
                    .is_ok_and(|s| s.applies_to(&net).is_ok() && model.check(&net, &s).is_ok())
            })
            .map(|e| e.to_string())
            .collect(),
        Err(_) => vec!["minimal".to_string()],
    };
    CACHE.with(|c| *c.borrow_mut() = (topology.to_string(), model, choices.clone()));
    choices
}

/// A combo of suggestions next to a free text field.
pub fn spec_field<S: AsRef<str>>(
    ui: &mut egui::Ui,
    id: &str,
    value: &mut String,
    choices: &[S],
    tip: &str,
) {
    ui.horizontal(|ui| {
        // The hover shows the whole spec, which the field may cut off.
        let whole = format!("{value}\n\n{tip}");
        ui.add(egui::TextEdit::singleline(value).desired_width(150.0))
            .on_hover_text(whole);
        egui::ComboBox::from_id_salt(id)
            .selected_text("")
            .width(20.0)
            .show_ui(ui, |ui| {
                for c in choices {
                    let c = c.as_ref();
                    ui.selectable_value(value, c.to_string(), c);
                }
            })
            .response
            .on_hover_text("Pick a suggestion");
    });
}

/// The scenario editor. `applied` is the running scenario, `replaced`
/// the one a refused swap's cure replaced (Revert puts it back).
pub fn scenario_ui(
    ui: &mut egui::Ui,
    draft: &mut Scenario,
    applied: &Scenario,
    replaced: Option<&Scenario>,
    commands: &mut Vec<AppCommand>,
    error_color: egui::Color32,
) {
    if !draft.name.is_empty() {
        ui.add(egui::Label::new(egui::RichText::new(&draft.name).strong()).wrap());
    }
    if !draft.description.is_empty() {
        ui.add(egui::Label::new(egui::RichText::new(&draft.description).italics()).wrap());
    }
    egui::Grid::new("scenario_grid")
        .num_columns(2)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            topology_row(ui, draft);
            traffic_rows(ui, draft);
            switch_model_row(ui, draft);
            if draft.switch_model.uses_deadlines() {
                deadline_rows(ui, draft);
            }
            if draft.switch_model.uses_router_params() {
                router_rows(ui, draft);
            } else {
                // The time-slice model moves one-flit messages between
                // switch buffers once per slice: packet size, switching,
                // VCs, buffer depth, selection and port priority do not
                // change its results, so they are not offered.
                ui.label("Router");
                ui.label("one-flit messages, one step per slice")
                    .on_hover_text("Each switch's buffer and rates are drawn in the fat-tree view (set per switch in the scenario file's `switches`). Packet size, switching, virtual channels, buffer depth, selection and port priority belong to the cycle-level models (input-queued, output-queued) and do not change a time-slice run.");
                ui.end_row();
            }
            run_rows(ui, draft);
        });
    let problems = draft.problems();
    for p in &problems {
        ui.colored_label(error_color, format!("Problem: {p}"));
    }
    apply_buttons(ui, draft, applied, replaced, &problems, commands);
}

/// Keep the draft's routing among those that fit its topology and switch
/// model (the fat-tree balancers run only on the time-slice model), else
/// the first that does.
fn fit_routing(draft: &mut Scenario) {
    let choices = routing_choices(&draft.topology, draft.switch_model);
    if !choices.contains(&draft.routing) {
        draft.routing = choices.first().cloned().unwrap_or_else(|| "minimal".into());
    }
}

/// The topology row: the kind's list (every registered kind a spec alone
/// builds) above the spec's field.
fn topology_row(ui: &mut egui::Ui, draft: &mut Scenario) {
    ui.label("Topology");
    ui.vertical(|ui| {
        let kind = draft.topology.split(':').next().unwrap_or("").to_string();
        egui::ComboBox::from_id_salt("topology_kind")
            .selected_text(&kind)
            .show_ui(ui, |ui| {
                // (File kinds are typed or opened.)
                for k in registry::kinds().into_iter().filter(|k| !k.from_file) {
                    if ui
                        .selectable_label(kind == k.name, k.name)
                        .on_hover_text(format!("{}: {}", k.summary, k.form))
                        .clicked()
                    {
                        draft.topology = k.example.to_string();
                        fit_routing(draft);
                    }
                }
            })
            .response
            .on_hover_text("Kind of network");
        let whole = format!("{}\n\n{}", draft.topology, registry::help());
        ui.add(egui::TextEdit::singleline(&mut draft.topology).desired_width(170.0))
            .on_hover_text(whole);
    });
    ui.end_row();
}

/// What is sent: routing, traffic pattern, arrivals and offered load.
fn traffic_rows(ui: &mut egui::Ui, draft: &mut Scenario) {
    ui.label("Routing");
    spec_field(
        ui,
        "routing_pick",
        &mut draft.routing,
        &routing_choices(&draft.topology, draft.switch_model),
        "Routing / balancer spec; the list offers the ones that apply to this topology",
    );
    ui.end_row();

    ui.label("Traffic");
    spec_field(
        ui,
        "traffic_pick",
        &mut draft.traffic,
        &traffic::registry::examples(),
        &traffic::registry::help(),
    );
    ui.end_row();

    ui.label("Arrivals");
    egui::ComboBox::from_id_salt("process")
        .selected_text(draft.process.as_str())
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut draft.process, Process::Bernoulli, "bernoulli");
            ui.selectable_value(&mut draft.process, Process::Exponential, "exponential");
            ui.selectable_value(&mut draft.process, Process::OnOff, "on_off");
        })
        .response
        .on_hover_text("Inter-arrival law of each host's packets");
    ui.end_row();

    ui.label("Offered load");
    let unit = draft.switch_model.unit();
    if unit.max_load > 1.0 {
        ui.add(
            egui::DragValue::new(&mut draft.load)
                .range(0.0..=unit.max_load)
                .speed(0.05)
                .suffix(" req/server/slice"),
        )
        .on_hover_text(format!("{}: {} (lambda)", draft.switch_model, unit.load));
    } else {
        // No `step_by`: a slider with a step rounds the value it shows
        // on every frame, which turned a preset's 0.135 into 0.14 in
        // the draft (and "Apply scenario" would have applied it).
        ui.add(egui::Slider::new(&mut draft.load, 0.0..=1.0).max_decimals(3))
            .on_hover_text("Flits per host per cycle (1 = a host injects every cycle)");
    }
    ui.end_row();
}

/// The switch model's list.
fn switch_model_row(ui: &mut egui::Ui, draft: &mut Scenario) {
    ui.label("Switch model");
    egui::ComboBox::from_id_salt("switch_model")
        .selected_text(draft.switch_model.as_str())
        .show_ui(ui, |ui| {
            for &m in SwitchModelKind::ALL {
                if ui
                    .selectable_value(&mut draft.switch_model, m, m.as_str())
                    .changed()
                {
                    fit_routing(draft);
                }
            }
        })
        .response
        .on_hover_text(switch_model_hover());
    ui.end_row();
}

/// The time-slice model's admission window and deadline.
fn deadline_rows(ui: &mut egui::Ui, draft: &mut Scenario) {
    ui.label("Admission R");
    let unit = counted(draft.admit_slices, "slice", "slices");
    ui.add(
        egui::DragValue::new(&mut draft.admit_slices)
            .range(0..=1_000_000)
            .suffix(unit),
    )
    .on_hover_text(
        "A request fails if its access switch has no room for it within R slices of its begin time",
    );
    ui.end_row();
    ui.label("Deadline D");
    let unit = counted(draft.deadline_slices, "slice", "slices");
    ui.add(
        egui::DragValue::new(&mut draft.deadline_slices)
            .range(1..=1_000_000)
            .suffix(unit),
    )
    .on_hover_text("A request fails unless delivered within D slices of its begin time");
    ui.end_row();
}

/// The cycle-level router's parameters: packet size, switching, VCs,
/// buffer depth, selection and port priority.
fn router_rows(ui: &mut egui::Ui, draft: &mut Scenario) {
    ui.label("Packet size");
    let unit = counted(draft.packet_flits, "flit", "flits");
    ui.add(
        egui::DragValue::new(&mut draft.packet_flits)
            .range(1..=1024)
            .suffix(unit),
    )
    .on_hover_text("Flits per packet");
    ui.end_row();

    ui.label("Switching");
    egui::ComboBox::from_id_salt("switching")
                .selected_text(draft.switching.as_str())
                .show_ui(ui, |ui| {
                    for s in [
                        Switching::Wormhole,
                        Switching::VirtualCutThrough,
                        Switching::StoreAndForward,
                    ] {
                        ui.selectable_value(&mut draft.switching, s, s.as_str());
                    }
                })
                .response
                .on_hover_text("wormhole: flit by flit; vct: whole-packet buffers, cut through; saf: store and forward");
    ui.end_row();

    ui.label("Virtual channels");
    ui.add(egui::DragValue::new(&mut draft.vcs).range(1..=16))
        .on_hover_text("Virtual channels per input port (DOR on a torus needs 2)");
    ui.end_row();

    ui.label("Buffer depth");
    let unit = counted(draft.buffer_flits, "flit", "flits");
    ui.add(
        egui::DragValue::new(&mut draft.buffer_flits)
            .range(1..=1024)
            .suffix(unit),
    )
    .on_hover_text("Flits per virtual channel buffer");
    ui.end_row();

    ui.label("Selection");
    egui::ComboBox::from_id_salt("selection")
        .selected_text(draft.selection.as_str())
        .show_ui(ui, |ui| {
            for s in [Selection::Fixed, Selection::FirstFree, Selection::Adaptive] {
                ui.selectable_value(&mut draft.selection, s, s.as_str());
            }
        })
        .response
        .on_hover_text(
            "How a hop's candidate outputs are picked: fixed, first free, or most credits",
        );
    ui.end_row();

    ui.label("Port priority");
    egui::ComboBox::from_id_salt("port_priority")
                .selected_text(draft.port_priority.as_str())
                .show_ui(ui, |ui| {
                    for p in PortPriority::ALL {
                        ui.selectable_value(&mut draft.port_priority, p, p.as_str());
                    }
                })
                .response
                .on_hover_text("Which input port a switch serves first each cycle when several want the same output VC: rotating by one port per cycle, a pseudo-random port (immune to periodic patterns), or the port holding the oldest packet (age-based: no source starves behind a hot spot)");
    ui.end_row();
}

/// Warm-up and seed.
fn run_rows(ui: &mut egui::Ui, draft: &mut Scenario) {
    ui.label("Warm-up");
    let step = draft.switch_model.unit().step;
    let one = step.strip_suffix('s').unwrap_or(step);
    let unit = counted(draft.warmup, one, step);
    ui.add(
        egui::DragValue::new(&mut draft.warmup)
            .range(0..=10_000_000)
            .suffix(unit),
    )
    .on_hover_text(format!("{} before statistics start", capitalised(step)));
    ui.end_row();

    ui.label("Seed");
    ui.add(egui::DragValue::new(&mut draft.seed))
        .on_hover_text("Random seed: same seed, same run");
    ui.end_row();
}

/// Apply (when the draft changed and has no problem) and Revert (to the
/// running scenario, or to the one a cure replaced).
fn apply_buttons(
    ui: &mut egui::Ui,
    draft: &mut Scenario,
    applied: &Scenario,
    replaced: Option<&Scenario>,
    problems: &[String],
    commands: &mut Vec<AppCommand>,
) {
    ui.horizontal(|ui| {
        let changed = draft != applied;
        if ui
            .add_enabled(
                changed && problems.is_empty(),
                egui::Button::new("Apply scenario"),
            )
            .on_hover_text("Rebuild the simulation with these parameters (cycle 0)")
            .on_disabled_hover_text(if problems.is_empty() {
                "Nothing changed"
            } else {
                "Fix the problems listed above first"
            })
            .clicked()
        {
            commands.push(AppCommand::Apply(Box::new(draft.clone())));
        }
        let hover = match replaced {
            Some(_) if !changed => {
                "Back to the scenario before the restart that took the swap (cycle 0)"
            }
            _ => "Back to the running scenario's parameters",
        };
        if ui
            .add_enabled(changed || replaced.is_some(), egui::Button::new("Revert"))
            .on_hover_text(hover)
            .clicked()
        {
            match replaced {
                Some(r) if !changed => commands.push(AppCommand::Apply(Box::new(r.clone()))),
                _ => *draft = applied.clone(),
            }
        }
    });
}

/// A drag value's unit after `n`: ` flit` after 1, ` flits` otherwise
/// (the suffix is read before the value may change this frame, so an edit
/// shows its unit from the next frame on).
fn counted<N: PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    format!(" {}", if n == N::from(1) { one } else { many })
}
