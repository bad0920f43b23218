from rulebase.fastpath import main

main()
