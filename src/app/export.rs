//! Files out and in: curves as CSV, the view as PNG, scenarios as JSON.
//! Natively they are written next to the working directory, to a path the
//! user types, or to one chosen in the system file dialog
//! ([`super::file_dialog`]); on the web they are downloaded and uploaded.

use crate::sim::Simulation;

/// The live curves of every run as CSV, one row per window: exactly what
/// the plots draw ([`super::live_series::csv`]).
pub fn curves_csv(sims: &[(&str, &Simulation)]) -> String {
    super::live_series::csv(sims)
}

/// Encode RGBA pixels as PNG.
pub fn png_bytes(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(|e| e.to_string())?;
        w.write_image_data(rgba).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// Save bytes under `filename`: a file natively, a download on the web.
/// Returns a message for the status line.
pub fn save(filename: &str, mime: &str, bytes: &[u8]) -> Result<String, String> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = mime;
        save_to(std::path::Path::new(filename), bytes)
    }
    #[cfg(target_arch = "wasm32")]
    {
        super::web::download(filename, mime, bytes)?;
        Ok(format!("downloaded {filename}"))
    }
}

/// Write bytes to `path` (native). Returns a message for the status line.
#[cfg(not(target_arch = "wasm32"))]
pub fn save_to(path: &std::path::Path, bytes: &[u8]) -> Result<String, String> {
    std::fs::write(path, bytes).map_err(|e| format!("could not write {}: {e}", path.display()))?;
    let shown = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    Ok(format!("saved {}", shown.display()))
}

/// Read a text file natively.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_text(path: impl AsRef<std::path::Path>) -> Result<String, String> {
    let path = path.as_ref();
    std::fs::read_to_string(path).map_err(|e| format!("could not read {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_has_a_row_per_window_and_png_encodes() {
        let mut sim = crate::scenario::Scenario {
            topology: "torus:4x4".into(),
            ..Default::default()
        }
        .build()
        .unwrap();
        sim.run_for(300).unwrap();
        let csv = curves_csv(&[("A", &sim)]);
        assert_eq!(csv.lines().count(), 1 + sim.stats().windows().len());
        let first = csv.lines().nth(1).unwrap();
        let routing = sim.routing_name();
        assert!(
            first.starts_with(&format!("A,{routing},0,100,100,false,")),
            "{first}"
        );
        let png = png_bytes(2, 1, &[255, 0, 0, 255, 0, 0, 255, 255]).unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
}
