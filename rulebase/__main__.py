from rulebase.cli import main

main()
