//! What the app's plot reports say about plots stacked in a column.

use routelab::app::plots::PlotReport;

/// Two stacked plots put one moment at one x: the same x span, and data
/// areas whose left and right edges agree (to half a point).
pub fn assert_one_x(a: &PlotReport, b: &PlotReport) {
    let (ra, rb) = (a.x_range, b.x_range);
    assert!(
        (ra[0] - rb[0]).abs() < 1e-6 && (ra[1] - rb[1]).abs() < 1e-6,
        "{} x {ra:?}, {} x {rb:?}",
        a.id,
        b.id
    );
    let (da, db) = (a.data_rect, b.data_rect);
    assert!(
        (da.left() - db.left()).abs() < 0.5 && (da.right() - db.right()).abs() < 0.5,
        "{} data {da:?}, {} data {db:?}",
        a.id,
        b.id
    );
}
