"""95 % confidence intervals of a mean over a few seeds (Student's t)."""
import math

# t(0.975, df) for df = 1 .. 30; above, the normal's 1.96 is within 4 %.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
         2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
         2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t975(df):
    return _T975[df - 1] if df <= len(_T975) else 1.96


def half_width(sd, n):
    """The half-width of the 95 % interval of a mean of n samples with sample
    standard deviation sd; None when there is no interval (n < 2)."""
    if sd is None or n is None or n < 2:
        return None
    return t975(n - 1) * sd / math.sqrt(n)


def mean_text(mean, sd, n, decimals):
    """'mean ± half-width' (just the mean without an interval; '-' without a mean)."""
    if mean is None:
        return "-"
    half = half_width(sd, n)
    if half is None:
        return f"{mean:.{decimals}f}"
    return f"{mean:.{decimals}f} ± {half:.{decimals}f}"


def mean_sd(values):
    """(mean, sample standard deviation or None for one value, n) of a list."""
    n = len(values)
    mean = sum(values) / n
    sd = (sum((v - mean) ** 2 for v in values) / (n - 1)) ** 0.5 if n > 1 else None
    return mean, sd, n


def values_text(values, decimals):
    """'mean ± half-width' of a list of per-seed values."""
    return mean_text(*mean_sd(values), decimals)
