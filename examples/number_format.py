"""Numbers for people: thousands separators, Roman numerals, sizes, ordinals, words."""

ROMAN = [
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
]
UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
SMALL = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
         "fourteen fifteen sixteen seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()

calls = 0


def counted(function):
    def wrapper(*args, **kwargs):
        global calls
        calls += 1
        return function(*args, **kwargs)
    return wrapper


@counted
def grouped(number, separator=","):
    """1234567 -> '1,234,567', by hand (and checked against the format spec)."""
    sign, digits = ("-", str(-number)) if number < 0 else ("", str(number))
    groups = []
    while len(digits) > 3:
        digits, tail = digits[:-3], digits[-3:]
        groups.insert(0, tail)
    groups.insert(0, digits)
    text = sign + separator.join(groups)
    assert separator != "," or text == f"{number:,}", text
    return text


@counted
def roman(number):
    if not 0 < number < 4000:
        raise ValueError(f"{number} has no Roman numeral")
    out = ""
    for value, letters in ROMAN:
        count, number = divmod(number, value)
        out += letters * count
    return out


@counted
def human_size(size, *, precision=1):
    value = float(size)
    for unit in UNITS:
        if abs(value) < 1024 or unit == UNITS[-1]:
            break
        value /= 1024
    return f"{value:.{precision}f} {unit}" if unit != "B" else f"{size} B"


@counted
def ordinal(number):
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


@counted
def in_words(number):
    if number < 0:
        return "minus " + in_words(-number)
    if number < 20:
        return SMALL[number]
    if number < 100:
        tens, ones = divmod(number, 10)
        return TENS[tens] + ("-" + SMALL[ones] if ones else "")
    if number < 1000:
        hundreds, rest = divmod(number, 100)
        return SMALL[hundreds] + " hundred" + (" and " + in_words(rest) if rest else "")
    for scale, name in ((10 ** 9, "billion"), (10 ** 6, "million"), (1000, "thousand")):
        if number >= scale:
            high, rest = divmod(number, scale)
            words = in_words(high) + " " + name
            if rest:
                words += (" and " if rest < 100 else " ") + in_words(rest)
            return words
    raise AssertionError("unreachable")


def table():
    samples = [0, 7, 12, 42, 99, 101, 1999, 2024, 65536, -1234567, 3000000017]
    width = 0
    for n in samples:
        width = max(width, len(grouped(n)))
    print(f"{'number':>{width}} | {'roman':<12} | {'size':>10} | {'ordinal':<8} | words")
    print("-" * (width + 1) + "+" + "-" * 14 + "+" + "-" * 12 + "+" + "-" * 10 + "+" + "-" * 20)
    for n in samples:
        try:
            numeral = roman(n)
        except ValueError as error:
            numeral = "-"
            last_error = error
        print(f"{grouped(n):>{width}} | {numeral:<12} | {human_size(n):>10} | "
              f"{ordinal(n):<8} | {in_words(n)}")
    print("last error:", last_error)
    print("dots:", grouped(1234567, "."), "precision 3:", human_size(5_000_000, precision=3))
    print(f"helper calls: {calls}, pi ~ {355 / 113:.6f}, ratio {2 / 3:.2%}, {255:#06x} {255:b}")


table()
