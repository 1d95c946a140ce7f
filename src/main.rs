//! The `routelab` binary: the CLI subcommands natively; without one, the
//! GUI (with the `gui` feature) or the help text. On wasm32 (trunk), the
//! app in the page's canvas.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use clap::Parser;
    use routelab::cli::{Cli, run};
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return parse_error(e),
    };
    match cli.command {
        #[cfg(feature = "gui")]
        Some(routelab::cli::Command::App(args)) => match args.startup() {
            Ok(startup) => run_gui(startup),
            Err(e) => {
                eprintln!("error: {}", e.message());
                e.exit_code()
            }
        },
        Some(cmd) => match run(cmd) {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {}", e.message());
                e.exit_code()
            }
        },
        #[cfg(feature = "gui")]
        None => run_gui(Default::default()),
        #[cfg(not(feature = "gui"))]
        None => run_gui(),
    }
}

/// clap's message for a command line it cannot parse, except for an empty
/// argument (an unset shell variable, `--json ""`), where clap would say
/// "unexpected argument '' found" without naming where: say which argument
/// is empty and what it follows.
#[cfg(not(target_arch = "wasm32"))]
fn parse_error(e: clap::Error) -> std::process::ExitCode {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let empty_stray = e.kind() == ErrorKind::UnknownArgument
        && matches!(e.get(ContextKind::InvalidArg), Some(ContextValue::String(s)) if s.is_empty());
    if !empty_stray {
        e.exit()
    }
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let at = args
        .iter()
        .skip(1)
        .position(String::is_empty)
        .map_or(1, |i| i + 1);
    let after = args.get(at - 1).cloned().unwrap_or_default();
    eprintln!(
        "error: argument {at} is empty (after '{after}'), where no value is accepted: remove it, or quote a value that is not empty"
    );
    std::process::ExitCode::from(2)
}

/// No subcommand with the GUI built in: open the app.
#[cfg(all(not(target_arch = "wasm32"), feature = "gui"))]
fn run_gui(startup: routelab::cli::Startup) -> std::process::ExitCode {
    // A tour or demo that does not parse is refused before a window opens.
    if let Err(e) = routelab::app::RoutelabApp::check_startup(&startup) {
        eprintln!("error: {e}");
        return std::process::ExitCode::from(2);
    }
    let options = eframe::NativeOptions {
        viewport: eframe::egui::ViewportBuilder::default()
            .with_title("routelab")
            .with_app_id("routelab")
            .with_inner_size(
                startup
                    .window
                    .map_or([1400.0, 880.0], |(w, h)| [w as f32, h as f32]),
            )
            .with_min_inner_size([800.0, 500.0]),
        // A size asked for on the command line wins over the remembered one.
        persist_window: startup.window.is_none(),
        ..Default::default()
    };
    let result = eframe::run_native(
        "routelab",
        options,
        Box::new(|cc| {
            let mut app = routelab::app::RoutelabApp::from_creation_context(cc);
            app.apply_startup(startup);
            Ok(Box::new(app))
        }),
    );
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: could not open the window: {e}");
            eprintln!("(no display? run the CLI subcommands, or the app under xvfb-run)");
            std::process::ExitCode::FAILURE
        }
    }
}

/// No subcommand and no GUI: print the help.
#[cfg(all(not(target_arch = "wasm32"), not(feature = "gui")))]
fn run_gui() -> std::process::ExitCode {
    use clap::CommandFactory;
    eprintln!(
        "routelab: this build has no GUI (built with --no-default-features); \
         `cargo run --release` builds and opens the app. The command line:\n"
    );
    let _ = routelab::cli::Cli::command().print_help();
    std::process::ExitCode::SUCCESS
}

/// The web build: start the app on the page's canvas; if it fails to start
/// or panics later, say so on the page instead of leaving a frozen canvas.
#[cfg(target_arch = "wasm32")]
fn main() {
    use eframe::wasm_bindgen::JsCast as _;

    fn show_crash(text: &str) {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        if let Some(el) = doc.get_element_by_id("loading_text") {
            el.remove();
        }
        if let Some(el) = doc.get_element_by_id("crash_text") {
            el.set_text_content(Some(text));
            let _ = el.set_attribute("style", "display:block");
        }
    }

    // No dithering: egui's shader would add a noise term to every pixel,
    // which a software rasteriser (browsers without a GPU) pays for in
    // frame rate; the views use flat colours, so it buys no visible quality.
    let web_options = eframe::WebOptions {
        dithering: false,
        ..Default::default()
    };
    wasm_bindgen_futures::spawn_local(async move {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Some(canvas) = document
            .get_element_by_id("the_canvas_id")
            .and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            show_crash("routelab could not start: the page has no canvas.");
            return;
        };
        let runner = eframe::WebRunner::new();
        // After eframe's own hook (which logs to the console), show the panic on the page.
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            show_crash(&format!(
                "routelab has crashed: {info}. Reload the page to start again; the browser console has details."
            ));
        }));
        let start = runner
            .start(
                canvas,
                web_options,
                Box::new(|cc| {
                    Ok(Box::new(routelab::app::RoutelabApp::from_creation_context(
                        cc,
                    )))
                }),
            )
            .await;
        match start {
            Ok(()) => {
                if let Some(el) = document.get_element_by_id("loading_text") {
                    el.remove();
                }
            }
            Err(e) => show_crash(&format!("routelab could not start: {e:?}")),
        }
    });
}
