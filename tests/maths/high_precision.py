"""erfc and Φ in decimal arithmetic with digits to spare, the references for ``gelu``: π by Machin's formula, erf
by its series of positive terms (2/√π)·e^(−z²)·Σ 2ⁿ z^(2n+1) / (1·3·…·(2n+1)), never a float formula."""

from __future__ import annotations

import functools
from decimal import Decimal, localcontext

GUARD = 30  # digits kept beyond those that 1 − erf(z) loses to cancellation


def arctan_inverse(n: int, digits: int) -> Decimal:
    """arctan(1/n) by its Taylor series, to ``digits`` digits."""
    with localcontext() as context:
        context.prec = digits + 5
        x2, term, total, k = Decimal(1) / (n * n), Decimal(1) / n, Decimal(1) / n, 0
        while abs(term) > Decimal(10) ** -(digits + 5):
            k += 1
            term *= -x2
            total += term / (2 * k + 1)
        return total


@functools.cache
def pi(digits: int) -> Decimal:
    """π by Machin's formula, 16·arctan(1/5) − 4·arctan(1/239)."""
    with localcontext() as context:
        context.prec = digits + 5
        return 16 * arctan_inverse(5, digits) - 4 * arctan_inverse(239, digits)


def digits_for(z: Decimal) -> int:
    """Working digits for erfc(z): 1 − erf(z) ≈ e^(−z²) cancels about z²/ln 10 of them."""
    return GUARD + 10 + int(z * z / Decimal("2.302585")) if z > 0 else GUARD + 10


def erfc(z: Decimal) -> Decimal:
    """1 − erf(z) to at least ``GUARD`` significant digits, for any real z."""
    digits = digits_for(z)
    with localcontext() as context:
        context.prec = digits
        square, term, total, n = z * z, z, z, 0
        while n <= square or abs(term) > abs(total) * Decimal(10) ** -digits:
            n += 1
            term = term * 2 * square / (2 * n + 1)
            total += term
        return 1 - 2 / pi(digits).sqrt() * (-square).exp() * total


def gelu(x: float) -> Decimal:
    """x·Φ(x) = x·erfc(−x/√2)/2 for the float x, exactly as far as the digits go."""
    exact = Decimal(x)
    with localcontext() as context:
        context.prec = digits_for(abs(exact))
        return exact * erfc(-exact / Decimal(2).sqrt()) / 2


ASYMPTOTIC_FROM = 25  # from here erfcx sums the asymptotic series (its smallest term < 1e-270 of the sum)


def erfcx(z: float) -> Decimal:
    """e^(z²)·erfc(z) for the float z; far out, the series 1/(z√π)·Σ (−1)ⁿ (2n−1)!!/(2z²)ⁿ to its smallest term."""
    exact = Decimal(z)
    if exact >= ASYMPTOTIC_FROM:
        with localcontext() as context:
            context.prec = 2 * GUARD
            term, total, n = Decimal(1), Decimal(1), 0
            while True:
                n += 1
                following = -term * (2 * n - 1) / (2 * exact * exact)
                if abs(following) >= abs(term) or abs(following) < abs(total) * Decimal(10) ** -(2 * GUARD):
                    return total / (exact * pi(2 * GUARD).sqrt())
                term = following
                total += term
    with localcontext() as context:
        context.prec = digits_for(exact)
        return (exact * exact).exp() * erfc(exact)


def relative_error(got: float, exact: Decimal) -> float:
    """|got − exact| / |exact|."""
    return float(abs((Decimal(got) - exact) / exact))
