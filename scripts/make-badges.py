#!/usr/bin/env python3
"""Generates the achievement badges, the trip placeholder and the favicon in Public/images.

One template serves all 18 badges so the set stays consistent: the kind decides the
frame shape, palette and emblem; the tier (1st, 2nd, 3rd count of a kind) decides the
metal of the rim (bronze, silver, gold) and how much ornament surrounds it.
Run from the repository root: python3 scripts/make-badges.py
"""
import math
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "Public" / "images"
CENTER = 64
EMBLEM_Y = 58

BRONZE, SILVER, GOLD = range(3)
METALS = [  # light, mid, dark: bronze, silver, gold
    ("#f3c49b", "#c07a45", "#7a4020"),
    ("#ffffff", "#c4cad8", "#7d8599"),
    ("#fff6b8", "#f2c232", "#a8700c"),
]

KINDS = {
    # name: (frame, disc top, disc bottom, ribbon, emblem, counts)
    "activities": ("hexagon", "#7a7af9", "#3434a8", "#c5f04a", "check", (1, 5, 10)),
    "trips": ("shield", "#9b74f7", "#3f2fb0", "#8b7bff", "compass", (1, 3, 5)),
    "spring": ("circle", "#ffc0d8", "#d44a84", "#7ccf5a", "blossom", (1, 3, 5)),
    "summer": ("circle", "#ffa04d", "#e8503a", "#1fb5b0", "sun", (1, 3, 5)),
    "fall": ("circle", "#a8402c", "#4a1424", "#c2521f", "leaf", (1, 3, 5)),
    "winter": ("circle", "#c9e8ff", "#3b3fa8", "#7fb2f0", "snowflake", (1, 3, 5)),
}


def fmt(value):
    return f"{value:.1f}".rstrip("0").rstrip(".")


def polygon(radius, sides, rotation_deg, cx=CENTER, cy=EMBLEM_Y):
    points = []
    for i in range(sides):
        angle = math.radians(rotation_deg + 360 * i / sides)
        points.append(f"{fmt(cx + radius * math.cos(angle))},{fmt(cy + radius * math.sin(angle))}")
    return " ".join(points)


def frame_path(shape, inset):
    """Outline of the badge body; inset shrinks it to draw the disc inside the rim."""
    if shape == "circle":
        r = 46 - inset
        return f'<circle cx="{CENTER}" cy="{EMBLEM_Y}" r="{r}"'
    if shape == "hexagon":
        return f'<polygon points="{polygon(50 - inset * 1.15, 6, -90)}"'
    # Shield: flat top with rounded corners, sides curving to a point.
    top, left, right, bottom = 12 + inset, 22 + inset, 106 - inset, 108 - inset * 1.4
    curve = 8
    return (f'<path d="M{fmt(left + curve)} {fmt(top)}H{fmt(right - curve)}'
            f'Q{fmt(right)} {fmt(top)} {fmt(right)} {fmt(top + curve)}'
            f'V{fmt(60)}C{fmt(right)} {fmt(82 - inset * 0.3)} {fmt(86 - inset * 0.2)} {fmt(98 - inset * 0.8)} {CENTER} {fmt(bottom)}'
            f'C{fmt(42 + inset * 0.2)} {fmt(98 - inset * 0.8)} {fmt(left)} {fmt(82 - inset * 0.3)} {fmt(left)} {fmt(60)}'
            f'V{fmt(top + curve)}Q{fmt(left)} {fmt(top)} {fmt(left + curve)} {fmt(top)}Z"')


def emblem(kind, uid):
    """Emblem drawn around (0,0) within a radius of about 26 units."""
    if kind == "check":
        return (f'<circle r="25" fill="#15152e" opacity=".35"/>'
                f'<circle r="25" fill="none" stroke="#c5f04a" stroke-width="3" opacity=".55"/>'
                f'<path d="M-13 1 L-4 10 L14 -10" fill="none" stroke="#0e0e24" stroke-width="10" '
                f'stroke-linecap="round" stroke-linejoin="round" opacity=".35" transform="translate(0 2)"/>'
                f'<path d="M-13 1 L-4 10 L14 -10" fill="none" stroke="url(#{uid}-lime)" stroke-width="8" '
                f'stroke-linecap="round" stroke-linejoin="round"/>')
    if kind == "compass":
        ticks = "".join(
            f'<path d="M0 -23V-18" transform="rotate({a})"/>' for a in range(0, 360, 45))
        return (f'<circle r="26" fill="#1a1450" opacity=".45"/>'
                f'<circle r="24" fill="none" stroke="#ddd6ff" stroke-width="2" opacity=".8"/>'
                f'<g stroke="#ddd6ff" stroke-width="2.2" stroke-linecap="round" opacity=".9">{ticks}</g>'
                f'<g transform="rotate(35)">'
                f'<path d="M0 -20L6 0H-6Z" fill="url(#{uid}-lime)"/>'
                f'<path d="M0 20L6 0H-6Z" fill="#f2efff"/>'
                f'<path d="M0 -20L6 0H0Z" fill="#7fa51c" opacity=".55"/>'
                f'<path d="M0 20L-6 0H0Z" fill="#b6acf0"/></g>'
                f'<circle r="3.2" fill="#1a1450" stroke="#f2efff" stroke-width="1.6"/>')
    if kind == "blossom":
        petal = "M0 0C-9 -5 -10 -17 -4 -22Q0 -19 4 -22C10 -17 9 -5 0 0Z"
        petals = "".join(f'<path d="{petal}" transform="rotate({a})"/>' for a in range(0, 360, 72))
        leaf = "M0 0C6 -4 14 -4 20 0C14 5 6 5 0 0Z"
        return (f'<g fill="#4f9a3a"><path d="{leaf}" transform="translate(6 12) rotate(25)"/>'
                f'<path d="{leaf}" transform="translate(-6 12) rotate(155)"/></g>'
                f'<g fill="url(#{uid}-petal)" stroke="#c23d79" stroke-width=".8" stroke-opacity=".35">{petals}</g>'
                f'<g stroke="#f0709f" stroke-width="1.4" stroke-linecap="round" opacity=".7">'
                + "".join(f'<path d="M0 -4V-11" transform="rotate({a})"/>' for a in range(36, 360, 72))
                + f'</g><circle r="5" fill="#ffd54a"/><circle r="2.2" fill="#f29a1f"/>')
    if kind == "sun":
        rays = "".join(f'<path d="M-3.2 -16L0 -25L3.2 -16Z" transform="rotate({a})"/>'
                       for a in range(0, 360, 30))
        return (f'<g transform="translate(0 -4)"><g fill="#fff3b0">{rays}</g>'
                f'<circle r="13" fill="url(#{uid}-sun)" stroke="#fff6c8" stroke-width="1.5"/></g>'
                f'<path d="M-45 16q7.5 -6 15 0t15 0t15 0t15 0t15 0t15 0V46H-45Z" fill="#1fb5b0"/>'
                f'<path d="M-52 25q7.5 -6 15 0t15 0t15 0t15 0t15 0t15 0t15 0V46H-52Z" fill="#0e8a8f"/>'
                f'<path d="M-45 16q7.5 -6 15 0t15 0t15 0t15 0t15 0t15 0" fill="none" stroke="#bff5ef" stroke-width="1.6"/>')
    if kind == "leaf":
        # A maple leaf: five pointed lobes and a stem.
        maple = ("M0 -26L4 -16L10 -19L8 -7L18 -12L16 -5L24 -3L14 5L17 10L6 8L2 12V22H-2V12"
                 "L-6 8L-17 10L-14 5L-24 -3L-16 -5L-18 -12L-8 -7L-10 -19L-4 -16Z")
        return (f'<path d="{maple}" fill="#4a1218" opacity=".35" transform="translate(1.5 2)"/>'
                f'<path d="{maple}" fill="url(#{uid}-leaf)" stroke="#ffe0a0" stroke-width="1" '
                f'stroke-linejoin="round" stroke-opacity=".6"/>'
                f'<g fill="none" stroke="#7a2416" stroke-width="1.3" stroke-linecap="round" opacity=".65">'
                f'<path d="M0 12V-20M0 4L14 -4M0 4L-14 -4M0 -4L9 -12M0 -4L-9 -12"/></g>')
    # snowflake
    arm = "M0 0V-24M0 -9L-6 -14M0 -9L6 -14M0 -17L-4.5 -21M0 -17L4.5 -21"
    arms = "".join(f'<path d="{arm}" transform="rotate({a})"/>' for a in range(0, 360, 60))
    return (f'<g fill="none" stroke="#1e2a7a" stroke-width="5" stroke-linecap="round" opacity=".3" '
            f'transform="translate(1 1.5)">{arms}</g>'
            f'<g fill="none" stroke="url(#{uid}-ice)" stroke-width="3.2" stroke-linecap="round">{arms}</g>'
            f'<polygon points="0,-5 4.3,-2.5 4.3,2.5 0,5 -4.3,2.5 -4.3,-2.5" fill="#fff"/>')


def emblem_gradients(kind, uid):
    lime = (f'<linearGradient id="{uid}-lime" x1="0" y1="0" x2="0" y2="1">'
            f'<stop offset="0" stop-color="#e4ff8c"/><stop offset="1" stop-color="#a2d324"/></linearGradient>')
    defs = {
        "check": lime,
        "compass": lime,
        "blossom": f'<radialGradient id="{uid}-petal" cx=".5" cy=".5" r=".5">'
                   f'<stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#ffc4dc"/></radialGradient>',
        "sun": f'<radialGradient id="{uid}-sun" cx=".4" cy=".35" r=".7">'
               f'<stop offset="0" stop-color="#fffbe0"/><stop offset=".5" stop-color="#ffd23f"/>'
               f'<stop offset="1" stop-color="#ff9a1f"/></radialGradient>',
        "leaf": f'<linearGradient id="{uid}-leaf" x1="0" y1="0" x2=".4" y2="1">'
                f'<stop offset="0" stop-color="#ffd36b"/><stop offset=".55" stop-color="#f07a22"/>'
                f'<stop offset="1" stop-color="#c2381c"/></linearGradient>',
        "snowflake": f'<linearGradient id="{uid}-ice" x1="0" y1="0" x2="0" y2="1">'
                     f'<stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#d4ecff"/></linearGradient>',
    }
    return defs[kind]


def rosette(uid):
    """Scalloped gold rosette with a soft glow behind the gold tier, the grandest frame."""
    points = []
    count = 24
    for i in range(count * 2):
        radius = 57 if i % 2 == 0 else 51
        angle = math.radians(-90 + 180 * i / count)
        points.append(f"{fmt(CENTER + radius * math.cos(angle))},{fmt(EMBLEM_Y + radius * math.sin(angle))}")
    return (f'<circle cx="{CENTER}" cy="{EMBLEM_Y}" r="58" fill="url(#{uid}-halo)"/>'
            f'<polygon points="{" ".join(points)}" fill="url(#{uid}-rosette)" stroke="#6e4606" '
            f'stroke-opacity=".5" stroke-width="1" stroke-linejoin="round"/>')


def ribbon_tails(color):
    """Two ribbon tails below the badge, for the silver and gold tiers."""
    tail = "M0 0L14 0L14 30L7 24L0 30Z"
    return (f'<g fill="{color}" stroke="#0b0b0f" stroke-opacity=".35" stroke-width="1">'
            f'<path d="{tail}" transform="translate(40 82) rotate(22)"/>'
            f'<path d="{tail}" transform="translate(75 87) rotate(-22)"/></g>'
            f'<g fill="#000" opacity=".22">'
            f'<path d="M0 0L14 0L14 6L0 6Z" transform="translate(40 82) rotate(22)"/>'
            f'<path d="M0 0L14 0L14 6L0 6Z" transform="translate(75 87) rotate(-22)"/></g>')


def rim_studs(tier, shape, metal):
    """Studs on round and hexagonal rims: none for bronze, six for silver, twelve for gold."""
    if tier == BRONZE or shape == "shield":
        return ""
    count = 6 if tier == SILVER else 12
    radius = 42.5 if shape == "circle" else 43
    # The hexagon's silver studs sit on its corners; otherwise they are spaced evenly.
    start = -90 if shape == "hexagon" else -90 + 180 / count
    dots = []
    for i in range(count):
        a = math.radians(start + 360 * i / count)
        dots.append(f'<circle cx="{fmt(CENTER + radius * math.cos(a))}" cy="{fmt(EMBLEM_Y + radius * math.sin(a))}" r="1.6"/>')
    return f'<g fill="{metal[0]}" opacity=".9">{"".join(dots)}</g>'


def count_plate(uid, count, metal):
    label = str(count)
    width = 26 if len(label) == 1 else 34
    x = CENTER - width / 2
    return (f'<rect x="{fmt(x)}" y="95" width="{width}" height="24" rx="12" fill="#14141c" '
            f'stroke="url(#{uid}-metal)" stroke-width="2.5"/>'
            f'<text x="{CENTER}" y="112.5" text-anchor="middle" font-family="system-ui, sans-serif" '
            f'font-weight="800" font-size="17" fill="#fff">{label}</text>')


def badge(name, tier, count):
    frame, top, bottom, ribbon, kind, _ = KINDS[name]
    uid = f"{name}-{count}"
    metal = METALS[tier]
    defs = (
        f'<linearGradient id="{uid}-metal" x1="0" y1="0" x2=".3" y2="1">'
        f'<stop offset="0" stop-color="{metal[0]}"/><stop offset=".5" stop-color="{metal[1]}"/>'
        f'<stop offset="1" stop-color="{metal[2]}"/></linearGradient>'
        f'<linearGradient id="{uid}-disc" x1="0" y1="0" x2="0" y2="1">'
        f'<stop offset="0" stop-color="{top}"/><stop offset="1" stop-color="{bottom}"/></linearGradient>'
        f'<radialGradient id="{uid}-glow" cx=".5" cy=".28" r=".6">'
        f'<stop offset="0" stop-color="#fff" stop-opacity=".45"/>'
        f'<stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>'
        f'<linearGradient id="{uid}-shine" x1="0" y1="0" x2="0" y2="1">'
        f'<stop offset="0" stop-color="#fff" stop-opacity=".35"/>'
        f'<stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient>'
        + f'<clipPath id="{uid}-clip">{frame_path(frame, 6)}/></clipPath>'
        + emblem_gradients(kind, uid)
    )
    if tier == GOLD:
        defs += (f'<radialGradient id="{uid}-halo" cx=".5" cy=".5" r=".5">'
                 f'<stop offset=".6" stop-color="#ffd84a" stop-opacity=".45"/>'
                 f'<stop offset="1" stop-color="#ffd84a" stop-opacity="0"/></radialGradient>'
                 f'<linearGradient id="{uid}-rosette" x1="0" y1="0" x2="0" y2="1">'
                 f'<stop offset="0" stop-color="#e8b53a"/><stop offset="1" stop-color="#8f5a0c"/></linearGradient>')
    body = []
    if tier == GOLD:
        body.append(rosette(uid))
    if tier != BRONZE:
        body.append(ribbon_tails(ribbon))
    body.append(f'{frame_path(frame, -1)} fill="#000" opacity=".35" transform="translate(0 2)"/>')
    body.append(f'{frame_path(frame, 0)} fill="url(#{uid}-metal)"/>')
    body.append(f'{frame_path(frame, 6)} fill="url(#{uid}-disc)" stroke="#000" stroke-opacity=".25" stroke-width="1"/>')
    body.append(f'{frame_path(frame, 6)} fill="url(#{uid}-glow)"/>')
    body.append(rim_studs(tier, frame, metal))
    # Emblem and gloss stay inside the disc so wide scenery (the summer sea) meets the rim.
    body.append(f'<g clip-path="url(#{uid}-clip)">'
                f'<g transform="translate({CENTER} {EMBLEM_Y})">{emblem(kind, uid)}</g>'
                f'<ellipse cx="{CENTER}" cy="{EMBLEM_Y - 24}" rx="30" ry="14" fill="url(#{uid}-shine)"/></g>')
    body.append(count_plate(uid, count, metal))
    title = f"{name.capitalize()} badge, {count}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128" role="img" aria-label="{title}">'
            f'<title>{title}</title><defs>{defs}</defs>{"".join(body)}</svg>\n')


def placeholder():
    """4:3 illustration for trips without a photo: layered mountains under a sun, no text."""
    return """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600" preserveAspectRatio="xMidYMid slice" role="img" aria-label="No photo yet">
<title>No photo yet</title>
<defs>
<linearGradient id="ph-sky" x1="0" y1="0" x2=".35" y2="1"><stop offset="0" stop-color="#2a2a6e"/><stop offset=".55" stop-color="#4b3aa6"/><stop offset="1" stop-color="#7a4fc4"/></linearGradient>
<radialGradient id="ph-halo" cx=".66" cy=".34" r=".45"><stop offset="0" stop-color="#f3e8ff" stop-opacity=".32"/><stop offset="1" stop-color="#f3e8ff" stop-opacity="0"/></radialGradient>
<linearGradient id="ph-far" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#8e7df0"/><stop offset="1" stop-color="#5b4cc8"/></linearGradient>
<linearGradient id="ph-mid" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5b5bd6"/><stop offset="1" stop-color="#33308f"/></linearGradient>
<linearGradient id="ph-near" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#262266"/><stop offset="1" stop-color="#14122f"/></linearGradient>
</defs>
<rect width="800" height="600" fill="url(#ph-sky)"/>
<rect width="800" height="600" fill="url(#ph-halo)"/>
<circle cx="528" cy="206" r="62" fill="#f3efff" fill-opacity=".14" stroke="#c5f04a" stroke-width="6" stroke-opacity=".9"/>
<circle cx="528" cy="206" r="86" fill="none" stroke="#e9e4ff" stroke-width="2" opacity=".22"/>
<g fill="#e9e4ff" opacity=".55"><circle cx="90" cy="80" r="2.5"/><circle cx="260" cy="60" r="2"/><circle cx="380" cy="120" r="2.5"/><circle cx="720" cy="190" r="2"/><circle cx="60" cy="250" r="2"/><circle cx="700" cy="60" r="2.5"/></g>
<g fill="none" stroke="#e9e4ff" stroke-width="4" stroke-linecap="round" opacity=".35">
<path d="M150 150h70M180 168h80"/><path d="M620 110h60M596 128h56"/>
</g>
<path d="M0 420L120 330L190 372L300 250L410 360L470 318L560 392L660 300L800 380V600H0Z" fill="url(#ph-far)" opacity=".75"/>
<path d="M300 250L327.5 277.5L316 272L305 284L292 274L272.5 280.5Z" fill="#f3efff" opacity=".6"/>
<path d="M660 300L688 316L676 314L668 324L655 316L640 318.4Z" fill="#f3efff" opacity=".55"/>
<path d="M0 470L140 380L240 450L380 330L520 450L600 410L800 500V600H0Z" fill="url(#ph-mid)"/>
<path d="M380 330L405 352L394 348L384 358L372 349L355 352Z" fill="#f3efff" opacity=".45"/>
<path d="M0 540C120 500 220 486 340 508S600 560 800 520V600H0Z" fill="url(#ph-near)"/>
<path d="M0 420L120 330L190 372L300 250L410 360L470 318L560 392L660 300L800 380" fill="none" stroke="#e9e4ff" stroke-width="4" stroke-linejoin="round" opacity=".55"/>
<path d="M0 470L140 380L240 450L380 330L520 450L600 410L800 500" fill="none" stroke="#c5f04a" stroke-width="4" stroke-linejoin="round" opacity=".7"/>
</svg>
"""


def favicon():
    """Lime map pin on an indigo rounded square."""
    return """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<defs>
<linearGradient id="fav-bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7474fa"/><stop offset="1" stop-color="#3d3db8"/></linearGradient>
<linearGradient id="fav-pin" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#e2ff8a"/><stop offset="1" stop-color="#a8d82a"/></linearGradient>
</defs>
<rect width="64" height="64" rx="14" fill="url(#fav-bg)"/>
<rect x="1.5" y="1.5" width="61" height="61" rx="12.5" fill="none" stroke="#fff" stroke-opacity=".18" stroke-width="3"/>
<ellipse cx="32" cy="53" rx="10" ry="3" fill="#15153f" opacity=".45"/>
<path d="M32 53C32 53 14 36 14 25A18 18 0 0 1 50 25C50 36 32 53 32 53Z" fill="url(#fav-pin)"/>
<circle cx="32" cy="25" r="7" fill="#3d3db8"/>
</svg>
"""


def main():
    badges = OUT / "badges"
    badges.mkdir(parents=True, exist_ok=True)
    for name, spec in KINDS.items():
        for tier, count in enumerate(spec[5]):
            (badges / f"{name}-{count}.svg").write_text(badge(name, tier, count))
    (OUT / "placeholder.svg").write_text(placeholder())
    (OUT / "favicon.svg").write_text(favicon())


if __name__ == "__main__":
    main()
