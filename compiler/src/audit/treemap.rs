//! The squarified treemap layout (Bruls, Huizing and van Wijk, 2000): weights to rectangles whose areas are proportional to them, tiling a bounding rectangle, as near to square as the greedy rows allow.

/// An axis-aligned rectangle: its top-left corner, width and height.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect { x, y, w, h }
    }

    pub fn area(&self) -> f64 {
        self.w * self.h
    }

    /// The longer side over the shorter (1 for a square; infinite for a line).
    pub fn aspect(&self) -> f64 {
        let (long, short) = (self.w.max(self.h), self.w.min(self.h));
        if short <= 0.0 {
            f64::INFINITY
        } else {
            long / short
        }
    }

    /// The area `self` and `other` share.
    pub fn overlap(&self, other: &Rect) -> f64 {
        let w = (self.x + self.w).min(other.x + other.w) - self.x.max(other.x);
        let h = (self.y + self.h).min(other.y + other.h) - self.y.max(other.y);
        w.max(0.0) * h.max(0.0)
    }

    /// Whether `self` lies within `outer`, give or take `eps`.
    pub fn inside(&self, outer: &Rect, eps: f64) -> bool {
        self.x >= outer.x - eps
            && self.y >= outer.y - eps
            && self.x + self.w <= outer.x + outer.w + eps
            && self.y + self.h <= outer.y + outer.h + eps
    }

    /// `self` shrunk by `by` on every side (never below zero size).
    pub fn inset(&self, by: f64) -> Rect {
        let dx = by.min(self.w / 2.0);
        let dy = by.min(self.h / 2.0);
        Rect::new(self.x + dx, self.y + dy, self.w - 2.0 * dx, self.h - 2.0 * dy)
    }
}

/// One rectangle per weight, in the order given, tiling `bounds`: each rectangle's area is
/// `bounds.area() * weight / total`. Larger weights are placed first (top left). A weight that is
/// zero, negative or not finite gets an empty rectangle at `bounds`' corner.
pub fn squarify(weights: &[f64], bounds: Rect) -> Vec<Rect> {
    let mut out = vec![Rect::new(bounds.x, bounds.y, 0.0, 0.0); weights.len()];
    let usable = |w: f64| w.is_finite() && w > 0.0;
    let total: f64 = weights.iter().copied().filter(|w| usable(*w)).sum();
    if total <= 0.0 || bounds.area() <= 0.0 {
        return out;
    }
    let scale = bounds.area() / total;
    let mut order: Vec<usize> = (0..weights.len()).filter(|&i| usable(weights[i])).collect();
    order.sort_by(|&a, &b| weights[b].total_cmp(&weights[a]).then(a.cmp(&b)));
    let areas: Vec<(usize, f64)> = order.iter().map(|&i| (i, weights[i] * scale)).collect();

    let mut free = bounds;
    let mut start = 0;
    while start < areas.len() {
        let side = free.w.min(free.h);
        // Grow the row while that does not make its worst aspect ratio worse.
        let mut end = start + 1;
        while end < areas.len() && worst(&areas[start..=end], side) <= worst(&areas[start..end], side) {
            end += 1;
        }
        let last = end == areas.len();
        free = place_row(&areas[start..end], free, last, &mut out);
        start = end;
    }
    out
}

/// The worst aspect ratio of a row of `areas` laid along a side of length `side`.
fn worst(areas: &[(usize, f64)], side: f64) -> f64 {
    let sum: f64 = areas.iter().map(|(_, a)| a).sum();
    let (min, max) = areas
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), (_, a)| (lo.min(*a), hi.max(*a)));
    let s2 = side * side;
    let sum2 = sum * sum;
    (s2 * max / sum2).max(sum2 / (s2 * min))
}

/// Lays `row` along the shorter side of `free` and returns what is left of it; the last row takes
/// all of it, so rounding never leaves a sliver or runs past the edge.
fn place_row(row: &[(usize, f64)], free: Rect, last: bool, out: &mut [Rect]) -> Rect {
    let sum: f64 = row.iter().map(|(_, a)| a).sum();
    let vertical = free.w >= free.h; // a column at the left edge
    let (length, depth_room) = if vertical { (free.h, free.w) } else { (free.w, free.h) };
    let depth = if last {
        depth_room
    } else {
        (sum / length).min(depth_room)
    };
    let mut offset = 0.0;
    for (n, (i, area)) in row.iter().enumerate() {
        let extent = if n + 1 == row.len() {
            length - offset
        } else {
            area / depth
        };
        out[*i] = if vertical {
            Rect::new(free.x, free.y + offset, depth, extent)
        } else {
            Rect::new(free.x + offset, free.y, extent, depth)
        };
        offset += extent;
    }
    if vertical {
        Rect::new(free.x + depth, free.y, free.w - depth, free.h)
    } else {
        Rect::new(free.x, free.y + depth, free.w, free.h - depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Areas proportional to weights (relative error `tol`), inside the bounds, no two overlapping.
    fn check(weights: &[f64], bounds: Rect, tol: f64) -> Vec<Rect> {
        let rects = squarify(weights, bounds);
        assert_eq!(rects.len(), weights.len());
        let total: f64 = weights.iter().sum();
        for (w, r) in weights.iter().zip(&rects) {
            let want = bounds.area() * w / total;
            assert!(
                (r.area() - want).abs() <= tol * want.max(1.0),
                "weight {w}: area {} want {want}",
                r.area()
            );
            assert!(r.inside(&bounds, 1e-6), "{r:?} outside {bounds:?}");
            assert!(r.w >= 0.0 && r.h >= 0.0);
        }
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                assert!(a.overlap(b) < 1e-6, "{a:?} overlaps {b:?}");
            }
        }
        rects
    }

    #[test]
    fn the_papers_example() {
        // Bruls et al.'s figure: 6, 6, 4, 3, 2, 2, 1 in a 6 x 4 rectangle.
        let weights = [6.0, 6.0, 4.0, 3.0, 2.0, 2.0, 1.0];
        let rects = check(&weights, Rect::new(0.0, 0.0, 6.0, 4.0), 1e-9);
        // The first row is the two 6s stacked at the left, 3 wide.
        assert_eq!(rects[0], Rect::new(0.0, 0.0, 3.0, 2.0));
        assert_eq!(rects[1], Rect::new(0.0, 2.0, 3.0, 2.0));
        let worst = rects.iter().map(Rect::aspect).fold(0.0, f64::max);
        assert!(worst < 3.0, "worst aspect {worst}");
    }

    #[test]
    fn equal_weights_make_near_squares() {
        let rects = check(&[1.0; 16], Rect::new(0.0, 0.0, 400.0, 400.0), 1e-9);
        for r in rects {
            assert!(r.aspect() < 1.5, "{r:?}");
        }
    }

    #[test]
    fn one_weight_fills_the_bounds_and_zeros_are_empty() {
        let b = Rect::new(10.0, 20.0, 300.0, 100.0);
        let rects = squarify(&[5.0, 0.0, f64::NAN], b);
        assert_eq!(rects[0], b);
        assert_eq!(rects[1].area(), 0.0);
        assert_eq!(rects[2].area(), 0.0);
        assert!(squarify(&[], b).is_empty());
        assert_eq!(squarify(&[0.0], b)[0].area(), 0.0);
    }

    #[test]
    fn inset_stays_inside() {
        let r = Rect::new(0.0, 0.0, 3.0, 40.0);
        let i = r.inset(2.0);
        assert!(i.inside(&r, 0.0));
        assert_eq!(i.w, 0.0);
        assert_eq!(i.h, 36.0);
    }

    proptest! {
        #[test]
        fn any_weights_tile_the_bounds(
            weights in prop::collection::vec(1u32..5000, 1..200),
            w in 50.0f64..2000.0,
            h in 50.0f64..2000.0,
        ) {
            let weights: Vec<f64> = weights.into_iter().map(f64::from).collect();
            let bounds = Rect::new(3.0, 7.0, w, h);
            let rects = check(&weights, bounds, 1e-6);
            let covered: f64 = rects.iter().map(Rect::area).sum();
            prop_assert!((covered - bounds.area()).abs() < 1e-6 * bounds.area());
        }
    }
}
