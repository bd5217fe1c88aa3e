"""The transactions and insights screens on a data file.

    python3 examples/python/transactions.py [transactions.json]   (the bundled sample by default)

Imports the file, shows the category bar, the food list with its floating sum, unpins one
transaction, and shows the insights screen.
"""

import sys

from common.start import DATA, open_core, read_json, run


def show_list(core, category: str) -> None:
    listed = core.list_transactions(category)
    bar = " ".join(f"({c})" if c == listed["category"] else c for c in listed["categories"])
    print(f"[ {bar} ]")
    for t in listed["transactions"]:
        mark = "*" if t["pinned"] else " "
        print(f"  {mark} {t['date']}  {t['name'] or '':<20} {t['provider'] or '':<16} {t['amount']:>10.2f}")
    print(f"  {listed['count']} transactions; pinned sum ${listed['sum']:.2f}\n")


def show_insights(core) -> None:
    insights = core.insights()
    print("Insights")
    for row in insights["categories"]:
        bar = "#" * min(40, round(row["share"] * 40))
        print(f"  {row['category']:<14} {row['total']:>10.2f}  {row['count']:>2}  {row['share'] * 100:5.1f}%  {bar}")
    print(f"  {'total':<14} {insights['total']:>10.2f}")


def main(path: str) -> None:
    document = read_json(path)
    with open_core() as core:
        answer = core.import_transactions(document)
        print(f"Imported {answer['imported']} transactions, {len(answer['rejected'])} rejected\n")
        show_list(core, "all")
        show_list(core, "food")
        show_insights(core)

        print('\nUnpin "Salad Mix" (id 3):\n')
        core.unpin_transaction(3)
        show_list(core, "food")
        show_insights(core)


SAMPLE = DATA / "transactions.json"

if __name__ == "__main__":
    if len(sys.argv) > 2:
        sys.exit(f"usage: {sys.argv[0]} [transactions.json]")
    run(lambda: main(sys.argv[1] if len(sys.argv) == 2 else str(SAMPLE)))
