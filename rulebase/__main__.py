from rulebase.cli.entry import main

main()
