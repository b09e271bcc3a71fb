//! Guest names: what a newcomer is called until they pick a name.

/// The smallest number in a drawn guest name (four digits).
pub const GUEST_MIN: u32 = 1000;
/// The largest number in a drawn guest name (five digits).
pub const GUEST_MAX: u32 = 99_999;

/// The guest name with number `n`: `"guest-" + n` (`guest_name(4821) == "guest-4821"`).
pub fn guest_name(n: u32) -> String {
    format!("guest-{n}")
}

/// A guest name with a number drawn uniformly from [`GUEST_MIN`]`..=`[`GUEST_MAX`] (4 or 5
/// digits) from the operating system's random source. Names can repeat (99,000 of them): the
/// store refuses a taken one, and the caller draws again.
pub fn random_guest_name() -> String {
    let span = GUEST_MAX - GUEST_MIN + 1;
    // Rejection sampling: the largest multiple of `span` that fits a u32 bounds the draws
    // taken, so every number is equally likely.
    let zone = u32::MAX - u32::MAX % span;
    loop {
        let r = getrandom::u32().expect("the operating system's random source works");
        if r < zone {
            return guest_name(GUEST_MIN + r % span);
        }
    }
}

/// Whether `name` is shaped like a guest name: `guest-` and 1 to 10 ASCII digits (the lead's
/// pages and profiles may tell guests by it; [`crate::check_name`] refuses every name
/// beginning so).
pub fn is_guest_name(name: &str) -> bool {
    name.strip_prefix("guest-")
        .is_some_and(|digits| (1..=10).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guest_names() {
        assert_eq!(guest_name(4821), "guest-4821");
        assert_eq!(guest_name(99_999), "guest-99999");
        let (mut four, mut five) = (0, 0);
        for _ in 0..2000 {
            let name = random_guest_name();
            let n: u32 = name.strip_prefix("guest-").unwrap().parse().unwrap();
            assert!((GUEST_MIN..=GUEST_MAX).contains(&n), "{name}");
            assert!(is_guest_name(&name), "{name}");
            match name.len() - "guest-".len() {
                4 => four += 1,
                5 => five += 1,
                _ => panic!("{name}"),
            }
        }
        // 9,000 of the 99,000 numbers have four digits: about 182 of 2000 draws (a count
        // outside 100..=280 has a chance far below one in a billion).
        assert!((100..=280).contains(&four), "{four} four-digit, {five} five-digit");
    }

    #[test]
    fn guest_shapes() {
        assert!(is_guest_name("guest-1"));
        assert!(!is_guest_name("guest-"));
        assert!(!is_guest_name("guest-12a"));
        assert!(!is_guest_name("Guest-12"));
        assert!(!is_guest_name("guest-+12"));
        assert!(!is_guest_name("guest-12345678901"));
        assert!(!is_guest_name("alice"));
    }

    /// People cannot pick a guest's name (a member would pass for a guest); the server's own
    /// guest names do not go through `check_name`.
    #[test]
    fn people_cannot_take_guest_names() {
        assert_eq!(crate::check_name(&random_guest_name()), Err(crate::NameError::Reserved));
    }
}
