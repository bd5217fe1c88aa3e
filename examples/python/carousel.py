"""The carousel screen: a feed of rows of pattern tiles, and its images.

    python3 examples/python/carousel.py [patterns.json] [base-url] [--seed N]

Imports the colourlovers patterns (the bundled sample by default) and shows a seeded feed. With
a base URL (a server holding the pattern images by file name, e.g.
`python3 -m http.server -d images 8000` and http://127.0.0.1:8000), the patterns' images are
taken from there: the first screen is prefetched, the first row is loaded, and the cache
statistics are printed. Without one, no network is touched.
"""

import argparse

from common.start import DATA, carfit, open_core, read_json

ROWS, COLUMNS = 6, 8
SCREEN_ROWS, SCREEN_COLUMNS = 2, 4


def file_name(url: str) -> str:
    return url.rsplit("/", 1)[-1]


def show_feed(feed: dict) -> None:
    for row in feed["rows"]:
        print(row["title"])
        for tile in row["tiles"]:
            image = file_name(tile["imageUrl"]) if tile["imageUrl"] else "(colour only)"
            print(f"  {tile['id']:<7} {tile['title']:<18} {tile['color']}  {image}")


def load_row(core: carfit.Core, row: dict) -> None:
    print(f"\nLoading \"{row['title']}\"")
    for tile in row["tiles"]:
        try:
            data, info = core.image(tile["imageUrl"])
            print(f"  {tile['id']:<7} {len(data):>6} bytes  {info['contentType']:<10} from {info['source']}")
        except carfit.CarfitError as error:
            print(f"  {tile['id']:<7} {error.code}: {error.message} (showing {tile['color']})")


def show_stats(stats: dict) -> None:
    memory, disk, requests = stats["memory"], stats["disk"], stats["requests"]
    print("\nCache")
    print(f"  memory  {memory['count']} images, {memory['bytes']} of {memory['limit']} bytes")
    print(f"  disk    {disk['count']} images, {disk['bytes']} of {disk['limit']} bytes")
    print(f"  requests: {requests['network']} network, {requests['coalesced']} shared, "
          f"{requests['memoryHits']} memory hits, {requests['diskHits']} disk hits, {requests['failures']} failed")


def main() -> None:
    parser = argparse.ArgumentParser(description="Show a carousel feed and load its images.")
    parser.add_argument("patterns", nargs="?", default=str(DATA / "patterns.json"))
    parser.add_argument("base_url", nargs="?", help="where the pattern images are served, by file name")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    patterns = read_json(args.patterns)
    if args.base_url:
        base = args.base_url.rstrip("/")
        for pattern in patterns:
            pattern["imageUrl"] = f"{base}/{file_name(pattern['imageUrl'])}"

    with open_core() as core:
        print(f"{core.import_patterns(patterns)['pool']} patterns in the pool\n")
        feed = core.generate_carousel(ROWS, COLUMNS, seed=args.seed)
        show_feed(feed)
        if args.base_url:
            screen = [tile["imageUrl"] for row in feed["rows"][:SCREEN_ROWS] for tile in row["tiles"][:SCREEN_COLUMNS]]
            queued = core.prefetch_images(screen, priority="high")["queued"]
            print(f"\nPrefetching the first screen: {queued} images queued")
            load_row(core, feed["rows"][0])
            show_stats(core.image_stats())


if __name__ == "__main__":
    main()
