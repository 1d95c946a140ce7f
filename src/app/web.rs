//! Browser glue (wasm32 only): the URL fragment, the page title and a hidden
//! element tests can read, downloads and uploads.

use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The URL's fragment (with `#`) and query (with `?`).
pub fn location_parts() -> (String, String) {
    let Some(loc) = window().map(|w| w.location()) else {
        return (String::new(), String::new());
    };
    (
        loc.hash().unwrap_or_default(),
        loc.search().unwrap_or_default(),
    )
}

/// Put `fragment` (without `#`) in the address bar without reloading.
pub fn set_fragment(fragment: &str) {
    if let Some(w) = window()
        && let Ok(h) = w.history()
    {
        let _ = h.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("#{fragment}")),
        );
    }
}

/// The page's full address.
pub fn href() -> String {
    window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// Show what the app is showing, for people (title) and tests (hidden element).
pub fn publish(
    title: &str,
    scenario_json: &str,
    cycle: u64,
    frame_cpu_ms: Option<f32>,
    first_latency: Option<f64>,
) {
    let Some(doc) = window().and_then(|w| w.document()) else {
        return;
    };
    if doc.title() != title {
        doc.set_title(title);
    }
    if let Some(el) = doc.get_element_by_id("routelab-state") {
        if el.text_content().unwrap_or_default() != scenario_json {
            el.set_text_content(Some(scenario_json));
        }
        let _ = el.set_attribute("data-cycle", &cycle.to_string());
        if let Some(ms) = frame_cpu_ms {
            let _ = el.set_attribute("data-frame-cpu-ms", &format!("{ms:.2}"));
        }
        // The first measured window's latency, once there is one (the
        // browser test times the warm-up with it).
        match first_latency {
            Some(l) => {
                let _ = el.set_attribute("data-first-latency", &format!("{l:.3}"));
            }
            None => {
                let _ = el.remove_attribute("data-first-latency");
            }
        }
    }
}

/// Show a digest run's state on the hidden `#routelab-digest` element
/// (`data-state` running, done or error; `data-cycle` progress; the text is
/// the digest's JSON or the error) for the browser test.
pub fn publish_digest(state: &str, text: &str, (cycle, target): (u64, u64)) {
    let Some(el) = window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("routelab-digest"))
    else {
        return;
    };
    if el.get_attribute("data-state").as_deref() == Some(state) && state != "running" {
        return;
    }
    let _ = el.set_attribute("data-state", state);
    let _ = el.set_attribute("data-cycle", &format!("{cycle}/{target}"));
    if el.text_content().unwrap_or_default() != text {
        el.set_text_content(Some(text));
    }
}

/// Download bytes as a file.
pub fn download(filename: &str, mime: &str, bytes: &[u8]) -> Result<(), String> {
    let doc = window().and_then(|w| w.document()).ok_or("no document")?;
    let array = js_sys::Uint8Array::from(bytes);
    let parts = js_sys::Array::new();
    parts.push(&array.buffer());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_buffer_source_sequence_and_options(&parts, &opts)
        .map_err(|e| format!("{e:?}"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| format!("{e:?}"))?;
    let a: web_sys::HtmlAnchorElement = doc
        .create_element("a")
        .map_err(|e| format!("{e:?}"))?
        .dyn_into()
        .map_err(|_| "not an anchor")?;
    a.set_href(&url);
    a.set_download(filename);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Text of a file the user picked, delivered on a later frame.
pub type Upload = Rc<RefCell<Option<Result<String, String>>>>;

/// Open the browser's file picker; the chosen file's text lands in `slot`.
pub fn pick_text_file(slot: Upload, ctx: egui::Context) -> Result<(), String> {
    let doc = window().and_then(|w| w.document()).ok_or("no document")?;
    let input: web_sys::HtmlInputElement = doc
        .create_element("input")
        .map_err(|e| format!("{e:?}"))?
        .dyn_into()
        .map_err(|_| "not an input")?;
    input.set_type("file");
    input.set_accept(".json,application/json");
    let input2 = input.clone();
    let on_change = wasm_bindgen::closure::Closure::once(move || {
        let Some(file) = input2.files().and_then(|f| f.get(0)) else {
            return;
        };
        wasm_bindgen_futures::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
            let result = match text {
                Ok(v) => v
                    .as_string()
                    .ok_or_else(|| "the file is not text".to_string()),
                Err(e) => Err(format!("could not read the file: {e:?}")),
            };
            *slot.borrow_mut() = Some(result);
            ctx.request_repaint();
        });
    });
    input.set_onchange(Some(on_change.as_ref().unchecked_ref()));
    on_change.forget();
    input.click();
    Ok(())
}
